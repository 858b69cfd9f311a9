"""The one document loader of registration: fetch, decode and parse a JSON (or YAML) document.

Every adapter that reads a document by URL (an OpenAPI document, an OPTIMADE ``/info``)
goes through :func:`load_document`: one bounded request on the route's :class:`HttpTarget`,
the body decoded as JSON (or, for OpenAPI, JSON else YAML, :mod:`._yaml`) and every
failure raised as a :class:`DocumentError`, a ``RegistrationError`` naming the public URL.
Every request of a document (and of each file it refers to) goes through :func:`_fetch`,
where the registering router's document cache (``SchemaRouter(document_cache=DIR)``) keeps
the last good copy and lets it stand in for a source that cannot be reached.

:func:`load_document_set` reads a document split across files: the files its external
``$ref`` values name (``./paths/users.yaml``, ``https://host/common.yaml#/Error``), and the files
those name, relative to the file that names them, each once (so files that refer to each
other are fine). Limits, the document's own: each file within ``max_response_bytes`` and the
request timeout of the document's target, all of them together within
``max_response_bytes`` and that timeout again, at most :data:`MAX_REFERENCED_FILES` files;
only on the document's own origin unless the application allows others (``allow_ref_origins``).
A file that cannot be read (missing, on a refused origin, not JSON or YAML) is not an error
here: it is recorded in :attr:`DocumentSet.problems` and is one when a reference into it is
followed (so an operation left out by ``operations=`` never fails on its files). Every
``$ref`` inside a fetched file is rewritten to an absolute URL, so later lookups need no
notion of "the current file". Parsing and the walks run in a worker thread, as the root
document's parse does.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, NoReturn
from urllib.parse import urldefrag, urljoin

import anyio
import anyio.to_thread
import yaml

from .._document_cache import CachedDocument, DocumentCache, document_cache_in_use, query_secrets
from .._redaction import redact
from ..errors import InvocationError, InvocationUnavailableError, RegistrationError
from ._http import Fetched, HttpTarget, decode_json, origin_of, public_url
from ._network import NetworkChecker
from ._yaml import load_yaml

MAX_DOCUMENT_NODES = 2_000_000
MAX_REFERENCED_FILES = 200
"""The most files one document's external ``$ref`` values may bring in (the document not counted)."""
REFERENCED_FILE_CONCURRENCY = 8
_EXTERNAL_REF = re.compile(rb"""\$ref['"]?\s*:\s*(?:"(?!#)|'(?!#)|(?![\s"'#]))""")
"""A ``$ref`` whose value does not start with ``#`` (JSON or YAML): the cheap test that tells
whether a document needs walking for external references at all."""
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
    accepts YAML too (aliases bounded to :data:`MAX_DOCUMENT_NODES` nodes). The registering
    router's document cache applies (see :func:`_fetch`).
    """
    where = public_url(url)
    accept = "application/json" if syntax == "json" else ACCEPT_DOCUMENT
    fetched = await _fetch(target, url, failure, accept=accept)
    if syntax == "json":
        try:
            document = decode_json(fetched, "GET", url)
        except InvocationError as exc:
            raise DocumentError(f"{failure} {where}: {exc}", reason=str(exc)) from exc
    else:
        # a large document (or a YAML alias bomb being refused) takes seconds to parse: never on the loop
        parse = functools.partial(parse_document, fetched.body, where=where)
        document = await anyio.to_thread.run_sync(parse, abandon_on_cancel=True)
    await _keep(target, url, fetched, document)
    return document


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


# -- documents in many files -----------------------------------------------------------


@dataclass(frozen=True)
class DocumentSet:
    """A document and the files its external ``$ref`` values bring in (see the module docstring).

    ``files`` maps each file's URL (no fragment) to its data, every ``$ref`` in it made
    absolute; ``problems`` maps a file that could not be read to why; ``written`` maps an
    absolute reference to ``(as written, public URL of the file that wrote it)``.
    """

    url: str
    document: Any
    files: dict[str, Any] = field(default_factory=dict)
    problems: dict[str, str] = field(default_factory=dict)
    written: dict[str, tuple[str, str]] = field(default_factory=dict)

    def shown(self, ref: str) -> str:
        """*ref* quoted as its document wrote it, with the file it is in when not the root."""
        written, where = self.written.get(ref, (ref, public_url(self.url)))
        return repr(written) if where == public_url(self.url) else f"{written!r} (in {where})"


async def load_document_set(
    target: HttpTarget,
    url: str,
    *,
    failure: str = "could not read",
    allow_origins: Iterable[str] = (),
    network: NetworkChecker | None = None,
) -> DocumentSet:
    """The document at *url* (JSON or YAML) and every file its external references bring in.

    The document itself failing is a :class:`DocumentError`; so is passing a limit
    (:data:`MAX_REFERENCED_FILES`, the size or the time of the files together). *target*
    reads files on the document's origin (its headers included); a file on one of
    *allow_origins* is read without headers, once *network* (the router's connection rule)
    has checked its address like any address the application gives.
    """
    root = urldefrag(url).url
    fetched = await _fetch(target, url, failure)
    parse = functools.partial(_parse_file, fetched.body, root, rewrite=False)
    document, refs = await anyio.to_thread.run_sync(parse, abandon_on_cancel=True)
    await _keep(target, url, fetched, document)
    found = DocumentSet(root, document)
    if refs:
        await _FileWalk(found, target, frozenset(allow_origins), network).run(refs)
    return found


class _FileWalk:
    """Reads the files of one :class:`DocumentSet`, breadth first, each once."""

    def __init__(
        self, found: DocumentSet, target: HttpTarget, allowed: frozenset[str], network: NetworkChecker | None
    ) -> None:
        self.found = found
        self.target = target
        self.allowed = allowed
        self.network = network
        self.seen = {found.url}
        self.bytes_left = target.max_response_bytes
        self.limiter = anyio.CapacityLimiter(REFERENCED_FILE_CONCURRENCY)

    async def run(self, refs: list[tuple[str, str]]) -> None:
        seconds = self.target.timeout_seconds
        with anyio.move_on_after(seconds) as scope:
            try:
                async with anyio.create_task_group() as group:
                    self._queue(group, refs, public_url(self.found.url))
            except BaseExceptionGroup as failed:  # a limit passed: raise it as it is
                refused = failed.subgroup(lambda exc: isinstance(exc, DocumentError))
                if refused is None:
                    raise
                raise _first(refused) from None
        if scope.cancelled_caught:
            where = public_url(self.found.url)
            reason = f"the files that {where} refers to took longer than {seconds:g}s to read"
            raise DocumentError(reason, reason=reason)

    def _queue(self, group: anyio.abc.TaskGroup, refs: list[tuple[str, str]], where: str) -> None:
        for written, absolute in refs:
            self.found.written.setdefault(absolute, (written, where))
            file = urldefrag(absolute).url
            if file in self.seen:
                continue
            self.seen.add(file)
            if len(self.seen) - 1 > MAX_REFERENCED_FILES:
                reason = (
                    f"{public_url(self.found.url)} refers to more than {MAX_REFERENCED_FILES} other "
                    "files (the limit)"
                )
                raise DocumentError(reason, reason=reason)
            group.start_soon(self._read, group, file)

    async def _read(self, group: anyio.abc.TaskGroup, file: str) -> None:
        target = self._target_for(file)
        if target is None:
            return
        if target is not self.target and self.network is not None:
            try:
                await self.network.check_given(file)
            except RegistrationError as exc:
                self.found.problems[file] = str(exc)
                return
        async with self.limiter:
            try:
                fetched = await _fetch(target, file, "could not fetch")
            except DocumentError as exc:
                self.found.problems[file] = str(exc)
                return
        self.bytes_left -= len(fetched.body)
        if self.bytes_left < 0:
            reason = (
                f"the files that {public_url(self.found.url)} refers to hold more than "
                f"{self.target.max_response_bytes} bytes together (max_response_bytes)"
            )
            raise DocumentError(reason, reason=reason)
        parse = functools.partial(_parse_file, fetched.body, file, rewrite=True)
        try:
            data, refs = await anyio.to_thread.run_sync(parse, abandon_on_cancel=True)
        except DocumentError as exc:
            self.found.problems[file] = str(exc)
            return
        await _keep(target, file, fetched, data)
        self.found.files[file] = data
        self._queue(group, refs, public_url(file))

    def _target_for(self, file: str) -> HttpTarget | None:
        """The target that may read *file*, or None (the reason is recorded)."""
        try:
            origin = origin_of(file)
        except ValueError:
            self.found.problems[file] = f"{file[:200]} is not an http(s) URL; only those are fetched"
            return None
        if origin == self.target.origin:
            return self.target
        if origin in self.allowed:
            home = self.target
            return HttpTarget(home.client, origin, {}, home.timeout_seconds, home.max_response_bytes)
        self.found.problems[file] = (
            f"{public_url(file)} is on {origin}, not on the document's own origin {self.target.origin}; "
            "add_url(..., allow_ref_origins=[...]) names the other origins that may be read"
        )
        return None


def _first(group: BaseExceptionGroup[BaseException]) -> BaseException:
    first = group.exceptions[0]
    return _first(first) if isinstance(first, BaseExceptionGroup) else first


# -- the one request of every document, and the document cache -------------------------


@dataclass(frozen=True, slots=True)
class _StoredCopy(Fetched):
    """The document cache's copy, standing in for its source (never kept again)."""


async def _fetch(target: HttpTarget, url: str, failure: str, *, accept: str = ACCEPT_DOCUMENT) -> Fetched:
    """One document request; a failure is a :class:`DocumentError`.

    With the registering router's document cache (:mod:`.._document_cache`) the request is
    conditional when a copy exists (a 304 means the copy is current), and when the source
    cannot be reached (no connection, a timeout, a 5xx) the copy stands in and the cache
    says so. A 4xx never falls back to the copy. :func:`_keep` says what is kept.
    """
    cache = document_cache_in_use()
    copy = await cache.read(url) if cache is not None else None
    conditional = copy.conditional_headers() if copy is not None else None
    try:
        return await target.fetch("GET", url, accept=accept, headers=conditional)
    except InvocationError as exc:
        where = public_url(url)
        reason = redact(str(exc), query_secrets(url))  # a server may echo the URL's api_key
        if cache is not None and copy is not None and _copy_stands_in(cache, where, copy, exc, reason):
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


async def _keep(target: HttpTarget, url: str, fetched: Fetched, data: Any) -> None:
    """A freshly fetched document that parsed to an object becomes the cache's copy of *url*
    (a list, a string or an HTML page read as YAML never replaces a good copy)."""
    cache = document_cache_in_use()
    if cache is None or isinstance(fetched, _StoredCopy) or not isinstance(data, dict):
        return
    await cache.store(
        url,
        public_url(url),
        body=fetched.body,
        content_type=fetched.content_type,
        validators=fetched.validators,
        secrets=target.secrets,
        document=data,
    )


def _parse_file(body: bytes, url: str, *, rewrite: bool) -> tuple[Any, list[tuple[str, str]]]:
    """The data of one file and its references to other files: ``(as written, absolute)``.

    With *rewrite* every ``$ref`` of the file is made absolute in place (the file is ours).
    """
    data = parse_document(body, where=public_url(url))
    if not _EXTERNAL_REF.search(body) and not rewrite:
        return data, []
    return data, external_refs(data, url, rewrite=rewrite)


def external_refs(data: Any, url: str, *, rewrite: bool) -> list[tuple[str, str]]:
    """The ``$ref`` values of *data* (read at *url*) that lead to another file, in document order."""
    out: list[tuple[str, str]] = []
    pending = [data]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                absolute = urljoin(url, ref)
                if rewrite:
                    node["$ref"] = absolute
                if urldefrag(absolute).url != url:
                    out.append((ref, absolute))
            pending.extend(reversed(list(node.values())))
        elif isinstance(node, list):
            pending.extend(reversed(node))
    return out
