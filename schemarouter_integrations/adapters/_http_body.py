"""What a fetched response holds: the body read in bounded decoded pieces, as JSON, with
its caching hints (the reading half of :mod:`._http`, which re-exports these names)."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from .._caching import CacheHints, http_cache_hints
from ..errors import NonRetryableInvocationError
from ._decoding import BodyDecoder

__all__ = ["Fetched", "decode_json", "decoded", "oversized", "read_headers", "what_of", "with_hints"]

_READ_HEADERS = frozenset(
    {
        "content-length",
        "content-type",
        "content-encoding",
        "etag",
        "last-modified",
        "cache-control",
        "expires",
        "date",
    }
)
"""The response headers the reading of a 2xx answer looks at."""


def read_headers(headers: httpx.Headers) -> dict[str, str]:
    """The headers of :data:`_READ_HEADERS` that *headers* holds, each as ``headers[name]``
    gives it (lower-case name; a repeated header's values joined with ``", "``), read in one
    pass instead of one scan of every header per name."""
    found: dict[str, str] = {}
    for name, value in headers.multi_items():
        if name in _READ_HEADERS:
            found[name] = f"{found[name]}, {value}" if name in found else value
    return found


@dataclass(frozen=True, slots=True)
class Fetched:
    """A successful (2xx) response, fully read."""

    status_code: int
    content_type: str
    body: bytes
    validators: Mapping[str, str] = field(default_factory=dict)
    """The response's ``etag`` and ``last-modified`` (for a later conditional request)."""
    caching: Mapping[str, str] = field(default_factory=dict)
    """The response's ``cache-control``, ``expires`` and ``date`` (they bound the answer's TTL)."""


def decode_json(fetched: Fetched, method: str, url: str | httpx.URL) -> Any:
    """The JSON body of *fetched* (``None`` for a 204); anything else is non-retryable."""
    if not fetched.body.strip():
        if fetched.status_code == 204:
            return None
        raise NonRetryableInvocationError(
            f"{what_of(method, url)} answered {fetched.status_code} with an empty body"
        )
    try:
        return json.loads(fetched.body)
    except RecursionError:
        raise NonRetryableInvocationError(
            f"{what_of(method, url)} answered {fetched.status_code} with JSON nested too deeply to read"
        ) from None
    except ValueError:
        kind = fetched.content_type or "no content type"
        raise NonRetryableInvocationError(
            f"{what_of(method, url)} answered {fetched.status_code} but the body is not valid "
            f"JSON ({kind}, {len(fetched.body)} bytes)"
        ) from None


async def decoded(response: httpx.Response, encoding: str | None = None) -> AsyncIterator[bytes]:
    """The body in bounded decoded pieces (see :mod:`.decoding`); *encoding*: the response's
    ``content-encoding`` when the caller read it already."""
    if response.is_stream_consumed:  # built in memory (a mock transport): httpx decoded it already
        yield response.content
        return
    if encoding is None:
        encoding = response.headers.get("content-encoding", "")
    if not encoding:  # identity: the raw chunks as they come
        async for raw in response.aiter_raw():
            if raw:
                yield raw
        return
    decoder = BodyDecoder(encoding)
    async for raw in response.aiter_raw():
        for piece in decoder.decode(raw):
            yield piece


def oversized(what: str, limit: int) -> NonRetryableInvocationError:
    return NonRetryableInvocationError(
        f"{what}: the response is larger than the limit of {limit} bytes (max_response_bytes)"
    )


def what_of(method: str, url: str | httpx.URL) -> str:
    try:
        path = (httpx.URL(url) if isinstance(url, str) else url).path
    except (httpx.InvalidURL, TypeError, ValueError):
        path = "<invalid URL>"
    return f"{method.upper()} {path}"


def with_hints(document: Any, fetched: Fetched) -> Any:
    """*document* in :class:`CacheHints` when *fetched* carried caching headers."""
    if not fetched.caching:
        return document
    hints = http_cache_hints(fetched.caching, time.time())
    if hints is None:
        return document
    return CacheHints(document, max_age_seconds=hints[0], no_store=hints[1])
