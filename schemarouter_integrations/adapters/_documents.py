"""The one document loader of registration: fetch, decode and parse a JSON (or YAML) document.

Every adapter that reads a document by URL (an OpenAPI document, an OPTIMADE ``/info``,
a schema asked for by ``POST``) goes through :func:`load_document`: one bounded request on
the route's :class:`HttpTarget`, the body decoded as JSON (or JSON else YAML, :mod:`._yaml`)
and every failure raised as a :class:`DocumentError`, a ``RegistrationError`` naming the
public URL. Every request of a document (and of each file it refers to, see
:mod:`._document_sets`) goes through :func:`fetch_document`, where the registering router's
document cache (``SchemaRouter(document_cache=DIR)``) keeps the last good copy and lets it
stand in for a source that cannot be reached.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass
from typing import Any, Literal, NoReturn

import anyio
import anyio.to_thread
import yaml

from .._document_cache import CachedDocument, DocumentCache, document_cache_in_use, query_secrets
from .._redaction import redact
from ..errors import InvocationError, InvocationUnavailableError, RegistrationError
from ._http import Fetched, HttpTarget, decode_json, public_url
from ._yaml import load_yaml

MAX_DOCUMENT_NODES = 2_000_000
MAX_REFERENCED_FILES = 200
"""The most files one document's external ``$ref`` values may bring in (the document not counted)."""
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
    target: HttpTarget,
    url: str,
    *,
    method: str = "GET",
    body: Any = None,
    syntax: Syntax = "json",
    failure: str = "could not read",
) -> Any:
    """The document at *url* as JSON data; any failure is a :class:`DocumentError`.

    *method* and *body* (JSON data) ask for it: a schema some APIs give only to a ``POST``
    (a query language's introspection) is read like any other document. A failed request
    reads ``"<failure> <public url>: <why>"``. ``syntax="json_or_yaml"`` accepts YAML too
    (aliases bounded to :data:`MAX_DOCUMENT_NODES` nodes). The registering router's document
    cache applies (see :func:`fetch_document`), its copy keyed by the method and body too.
    """
    where = public_url(url)
    accept = "application/json" if syntax == "json" else ACCEPT_DOCUMENT
    request = DocumentRequest(url, method.upper(), body)
    fetched = await fetch_document(target, request, failure, accept=accept)
    if syntax == "json":
        try:
            document = decode_json(fetched, request.method, url)
        except InvocationError as exc:
            raise DocumentError(f"{failure} {where}: {exc}", reason=str(exc)) from exc
    else:
        # a large document (or a YAML alias bomb being refused) takes seconds to parse: never on the loop
        parse = functools.partial(parse_document, fetched.body, where=where)
        document = await anyio.to_thread.run_sync(parse, abandon_on_cancel=True)
    await keep_document(target, request, fetched, document)
    return document


@dataclass(frozen=True, slots=True)
class DocumentRequest:
    """How one document is asked for: a ``GET`` of *url*, or another method with a JSON body."""

    url: str
    method: str = "GET"
    body: Any = None

    @property
    def key(self) -> str:
        """The document cache's key: the URL of a ``GET``, else the URL, method and body."""
        if self.method == "GET" and self.body is None:
            return self.url
        sent = json.dumps(self.body, sort_keys=True, separators=(",", ":"), default=str)
        return f"{self.url}#{self.method}:{hashlib.sha256(sent.encode()).hexdigest()}"

    @property
    def shown(self) -> str:
        """The public URL (with the method when it is not ``GET``)."""
        where = public_url(self.url)
        return where if self.method == "GET" else f"{self.method} {where}"


def parse_document(body: bytes, *, where: str) -> Any:
    """JSON, else YAML (safe loader; rapidyaml with the ``yaml`` extra), normalised to plain JSON data."""
    try:
        return json.loads(body)
    except RecursionError:
        _refuse(f"{where} is nested too deeply")
    except ValueError:
        pass
    try:
        return load_yaml(body, max_nodes=MAX_DOCUMENT_NODES)
    except (yaml.YAMLError, RecursionError) as exc:
        _refuse(f"{where} is neither JSON nor YAML: {_first_line(exc)}")
    except OverflowError:  # YAML aliases can expand a small text exponentially
        _refuse(f"{where} expands to more than {MAX_DOCUMENT_NODES} nodes")


def _refuse(message: str) -> NoReturn:
    raise DocumentError(message, reason=message) from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__


# -- the one request of every document, and the document cache -------------------------


@dataclass(frozen=True, slots=True)
class _StoredCopy(Fetched):
    """The document cache's copy, standing in for its source (never kept again)."""


async def fetch_document(
    target: HttpTarget, request: DocumentRequest | str, failure: str, *, accept: str = ACCEPT_DOCUMENT
) -> Fetched:
    """One document request; a failure is a :class:`DocumentError`.

    With the registering router's document cache (:mod:`.._document_cache`) a ``GET`` is
    conditional when a copy exists (a 304 means the copy is current), and when the source
    cannot be reached (no connection, a timeout, a 5xx) the copy stands in and the cache
    says so. A 4xx never falls back to the copy. :func:`keep_document` says what is kept.
    """
    request = DocumentRequest(request) if isinstance(request, str) else request
    url = request.url
    cache = document_cache_in_use()
    copy = await cache.read(request.key) if cache is not None else None
    conditional = copy.conditional_headers() if copy is not None and request.method == "GET" else None
    try:
        return await target.fetch(
            request.method, url, accept=accept, headers=conditional, json_body=request.body
        )
    except InvocationError as exc:
        where = public_url(url)
        reason = redact(str(exc), query_secrets(url))  # a server may echo the URL's api_key
        shown = request.shown
        if cache is not None and copy is not None and _copy_stands_in(cache, shown, copy, exc, reason):
            return _StoredCopy(200, copy.content_type, copy.body)
        unavailable = isinstance(exc, InvocationUnavailableError)
        raise DocumentError(f"{failure} {where}: {reason}", reason=reason, unavailable=unavailable) from exc


def _copy_stands_in(
    cache: DocumentCache, where: str, copy: CachedDocument, exc: InvocationError, reason: str
) -> bool:
    """Whether the stored *copy* answers for a request that failed with *exc*."""
    status = getattr(exc, "status_code", None)
    if status == 304:
        cache.fresh(where)
        return True
    if (status is None and isinstance(exc, InvocationUnavailableError)) or (status or 0) >= 500:
        cache.served_stale(where, copy, reason=reason)
        return True
    return False


async def keep_document(
    target: HttpTarget, request: DocumentRequest | str, fetched: Fetched, data: Any
) -> None:
    """A freshly fetched document that parsed to an object becomes the cache's copy of it
    (a list, a string or an HTML page read as YAML never replaces a good copy)."""
    request = DocumentRequest(request) if isinstance(request, str) else request
    cache = document_cache_in_use()
    if cache is None or isinstance(fetched, _StoredCopy) or not isinstance(data, dict):
        return
    await cache.store(
        request.key,
        request.shown,
        body=fetched.body,
        content_type=fetched.content_type,
        validators=fetched.validators,
        secrets=target.secrets,
        document=data,
    )
