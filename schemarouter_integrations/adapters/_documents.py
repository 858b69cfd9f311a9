"""The one document loader of registration: fetch, decode and parse a JSON (or YAML) document.

Every adapter that reads a document by URL (an OpenAPI document, an OPTIMADE ``/info``)
goes through :func:`load_document`: one bounded request on the route's :class:`HttpTarget`,
the body decoded as JSON (or, for OpenAPI, JSON else YAML with the safe loader) and every
failure raised as a :class:`DocumentError`, a ``RegistrationError`` naming the public URL.
"""

from __future__ import annotations

import functools
import json
from typing import Any, Literal, NoReturn

import anyio.to_thread
import yaml

from .._document_cache import CachedDocument, DocumentCache, document_cache_in_use
from ..errors import InvocationError, InvocationUnavailableError, RegistrationError
from ._http import Fetched, HttpTarget, decode_json, public_url

MAX_DOCUMENT_NODES = 2_000_000
ACCEPT_DOCUMENT = "application/json, application/yaml;q=0.9, text/yaml;q=0.9, */*;q=0.5"
Syntax = Literal["json", "json_or_yaml"]


class DocumentError(RegistrationError):
    """A document that could not be read or parsed.

    ``reason`` is what went wrong without the URL prefix; ``unavailable`` is true when the
    server could not be reached at all (a timeout, a refused connection), so that looking
    elsewhere on the same server will not help either.
    """

    def __init__(self, message: str, *, reason: str, unavailable: bool = False) -> None:
        super().__init__(message)
        self.reason = reason
        self.unavailable = unavailable


async def load_document(
    target: HttpTarget, url: str, *, syntax: Syntax = "json", failure: str = "could not read"
) -> Any:
    """The document at *url* as JSON data; any failure is a :class:`DocumentError`.

    A failed request reads ``"<failure> <public url>: <why>"``. ``syntax="json_or_yaml"``
    accepts YAML too (aliases bounded to :data:`MAX_DOCUMENT_NODES` nodes).

    With the registering router's document cache (:mod:`.._document_cache`) a request is
    conditional when a copy exists (a 304 means the copy is current); when the source
    cannot be reached (no connection, a timeout, a 5xx) the copy stands in, and says so.
    A 4xx never falls back to it. A fetched document that is an object becomes the copy.
    """
    where = public_url(url)
    cache = document_cache_in_use()
    copy = await cache.read(url) if cache is not None else None
    accept = "application/json" if syntax == "json" else ACCEPT_DOCUMENT
    try:
        fetched = await target.fetch(
            "GET", url, accept=accept, headers=copy.conditional_headers() if copy is not None else None
        )
    except InvocationError as exc:
        if cache is None or copy is None or not _copy_stands_in(cache, where, copy, exc):
            message, unavailable = f"{failure} {where}: {exc}", isinstance(exc, InvocationUnavailableError)
            raise DocumentError(message, reason=str(exc), unavailable=unavailable) from exc
        return await _parsed(Fetched(200, copy.content_type, copy.body), url, syntax, failure)
    document = await _parsed(fetched, url, syntax, failure)
    if cache is not None and isinstance(document, dict):
        await cache.store(
            url,
            where,
            body=fetched.body,
            content_type=fetched.content_type,
            validators=fetched.validators,
            secrets=target.secrets,
        )
    return document


def _copy_stands_in(cache: DocumentCache, where: str, copy: CachedDocument, exc: InvocationError) -> bool:
    """Whether the stored *copy* answers for a request that failed with *exc*."""
    status = getattr(exc, "status_code", None)
    if status == 304:
        cache.fresh(where)
        return True
    if (status is None and isinstance(exc, InvocationUnavailableError)) or (status or 0) >= 500:
        cache.served_stale(where, copy, reason=str(exc))
        return True
    return False


async def _parsed(fetched: Fetched, url: str, syntax: Syntax, failure: str) -> Any:
    where = public_url(url)
    if syntax == "json":
        try:
            return decode_json(fetched, "GET", url)
        except InvocationError as exc:
            raise DocumentError(f"{failure} {where}: {exc}", reason=str(exc)) from exc
    # a large document (or a YAML alias bomb being refused) takes seconds to parse: never on the loop
    parse = functools.partial(parse_document, fetched.body, where=where)
    return await anyio.to_thread.run_sync(parse, abandon_on_cancel=True)


def parse_document(body: bytes, *, where: str) -> Any:
    """JSON, else YAML (safe loader), normalised to plain JSON data."""
    try:
        return json.loads(body)
    except RecursionError:
        _refuse(f"{where} is nested too deeply")
    except ValueError:
        pass
    try:
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        return _plain(yaml.load(body, Loader=loader), [MAX_DOCUMENT_NODES])
    except (yaml.YAMLError, RecursionError) as exc:
        _refuse(f"{where} is neither JSON nor YAML: {_first_line(exc)}")
    except OverflowError:  # YAML aliases can expand a small text exponentially
        _refuse(f"{where} expands to more than {MAX_DOCUMENT_NODES} nodes")


def _refuse(message: str) -> NoReturn:
    raise DocumentError(message, reason=message) from None


def _plain(value: Any, budget: list[int]) -> Any:
    """YAML data as JSON data (string keys, dates as text), at most ``budget[0]`` nodes."""
    budget[0] -= 1
    if budget[0] < 0:
        raise OverflowError
    if isinstance(value, dict):
        return {str(k): _plain(v, budget) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v, budget) for v in value]
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    return str(value)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__
