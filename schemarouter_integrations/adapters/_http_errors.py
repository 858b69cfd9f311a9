"""The one map from HTTP failures to router errors, shared by every HTTP adapter.

::

    httpx.TimeoutException (any phase)           -> InvocationUnavailableError (transport)
    httpx.TransportError while connecting/sending -> InvocationUnavailableError (transport)
    httpx.TransportError while reading the body  -> NonRetryableInvocationError (truncated)
    status 408, 425, 429, 500, 502, 503, 504     -> InvocationUnavailableError (retry_after)
    any other status >= 300                      -> NonRetryableInvocationError
    a body that is oversized or not JSON         -> NonRetryableInvocationError

Messages carry the method, the path (never the query string), the status and a short
excerpt of the body with every secret value redacted; never a header.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any, Literal

from .._redaction import redact
from ..errors import InvocationError, InvocationUnavailableError, NonRetryableInvocationError

if TYPE_CHECKING:  # httpx is imported where an HTTP failure is classified: routes without HTTP skip it
    import httpx

UNAVAILABLE_STATUSES = frozenset({408, 425, 429, 500, 502, 503, 504})
"""Statuses that mean "try again later": the route is unavailable, not wrong."""

EXCERPT_CHARS = 200
Phase = Literal["send", "body"]

_SPACES = re.compile(r"\s+")


def http_failure(
    what: str,
    *,
    exc: httpx.HTTPError | None = None,
    phase: Phase = "send",
    status_code: int | None = None,
    headers: Mapping[str, str] | None = None,
    body: bytes = b"",
    secrets: Iterable[str] = (),
    now: Callable[[], float] = time.time,
) -> InvocationError:
    """Classify one HTTP failure: a transport exception *exc* or a response status.

    *what* names the request (``"GET /materials/summary/"``); *secrets* are values that
    must never appear in the message (API keys).
    """
    if exc is not None:
        return _from_exception(what, exc, phase)
    assert status_code is not None, "http_failure needs an exception or a status code"
    reason = _reason(status_code)
    detail = body_excerpt(body, secrets)
    message = f"{what} answered {status_code} {reason}".rstrip()
    if detail:
        message += f": {detail}"
    if status_code in UNAVAILABLE_STATUSES:
        retry_after = parse_retry_after((headers or {}).get("retry-after"), now=now)
        return InvocationUnavailableError(message, retry_after=retry_after, status_code=status_code)
    return NonRetryableInvocationError(message, status_code=status_code)


@contextmanager
def mapped_http_errors(what: str, phase: Phase = "send") -> Iterator[None]:
    """Re-raise httpx exceptions raised inside the block as router errors."""
    import httpx

    try:
        yield
    except httpx.HTTPError as exc:
        raise http_failure(what, exc=exc, phase=phase) from exc


def _from_exception(what: str, exc: httpx.HTTPError, phase: Phase) -> InvocationError:
    import httpx

    kind = type(exc).__name__
    if isinstance(exc, httpx.TimeoutException):
        return InvocationUnavailableError(f"{what} timed out ({kind})", transport=True)
    if isinstance(exc, httpx.TransportError):
        if phase == "body":
            return NonRetryableInvocationError(f"{what}: the response body was truncated ({kind})")
        if isinstance(exc, httpx.ConnectError):
            return InvocationUnavailableError(f"{what}: could not connect ({kind})", transport=True)
        return InvocationUnavailableError(f"{what}: transport failure ({kind})", transport=True)
    return NonRetryableInvocationError(f"{what}: {kind}")


def parse_retry_after(value: str | None, *, now: Callable[[], float] = time.time) -> float | None:
    """Seconds from a Retry-After header: delta-seconds or an HTTP-date (never negative)."""
    if value is None:
        return None
    text = value.strip()
    if not text:
        return None
    try:
        seconds = float(text)
    except ValueError:
        try:
            when = parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            return None
        seconds = when.timestamp() - now()
    if seconds != seconds or seconds == float("inf"):  # NaN or infinite
        return None
    return max(seconds, 0.0)


def body_excerpt(body: bytes, secrets: Iterable[str] = (), *, limit: int = EXCERPT_CHARS) -> str:
    """A short, single-line, redacted description of an error body.

    JSON error documents are read for their message (OPTIMADE/JSON:API ``errors[].title`` and
    ``detail``, FastAPI ``detail``, ``message``, ``error``); other bodies are excerpted as text.
    """
    message = error_document_message(_loads(body)) if body.lstrip()[:1] in (b"{", b"[") else None
    text = message if message is not None else body.decode("utf-8", errors="replace")
    return _truncate(_SPACES.sub(" ", redact(text, secrets)).strip(), limit)


def error_document_message(document: Any) -> str | None:
    """The human message of a JSON error document, or None when it has none."""
    if not isinstance(document, dict):
        return None
    errors = document.get("errors")
    if isinstance(errors, list) and errors:
        parts = []
        for error in errors[:3]:
            if isinstance(error, dict):
                bits = [str(error[k]) for k in ("title", "detail") if error.get(k)]
                if bits:
                    parts.append(": ".join(bits))
        if parts:
            return "; ".join(parts)
    for key in ("detail", "message", "error", "title"):
        value = document.get(key)
        if isinstance(value, str) and value:
            return value
        if key == "detail" and isinstance(value, list) and value:
            return json.dumps(value, ensure_ascii=False)
    return None


def _truncate(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _loads(body: bytes) -> Any:
    try:
        return json.loads(body)
    except ValueError:
        return None


def _reason(status_code: int) -> str:
    import httpx

    return httpx.codes.get_reason_phrase(status_code)
