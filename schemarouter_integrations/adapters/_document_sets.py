"""Documents split across files: :func:`load_document_set` reads a document and the files its
external ``$ref`` values name (``./paths/users.yaml``, ``https://host/common.yaml#/Error``),
and the files those name, relative to the file that names them, each once (so files that
refer to each other are fine).

Limits, the document's own: each file within ``max_response_bytes`` and the request timeout
of the document's target, all of them together within ``max_response_bytes`` and that
timeout again, at most :data:`~._documents.MAX_REFERENCED_FILES` files; only on the
document's own origin unless the application allows others (``allow_ref_origins``). A file
that cannot be read (missing, on a refused origin, not JSON or YAML) is not an error here:
it is recorded in :attr:`DocumentSet.problems` and is one when a reference into it is
followed (so an operation left out by ``operations=`` never fails on its files). Every
``$ref`` inside a fetched file is rewritten to an absolute URL, so later lookups need no
notion of "the current file". Parsing and the walks run in a worker thread, as the root
document's parse does. Every file goes through the one document request
(:func:`~._documents.fetch_document`) and so the document cache.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urldefrag, urljoin

import anyio
import anyio.to_thread

from .._nodes import objects_in
from ..errors import RegistrationError
from . import _documents
from ._documents import MAX_REFERENCED_FILES, DocumentError, fetch_document, keep_document
from ._http import HttpTarget, origin_of, public_url
from ._network import NetworkChecker

__all__ = ["DocumentSet", "external_refs", "load_document_set"]

REFERENCED_FILE_CONCURRENCY = 8
_EXTERNAL_REF = re.compile(rb"""\$ref['"]?\s*:\s*(?:"(?!#)|'(?!#)|(?![\s"'#]))""")
"""A ``$ref`` whose value does not start with ``#`` (JSON or YAML): the cheap test that tells
whether a document needs walking for external references at all."""


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
    fetched = await fetch_document(target, url, failure)
    parse = functools.partial(_parse_file, fetched.body, root, rewrite=False)
    document, refs = await anyio.to_thread.run_sync(parse, abandon_on_cancel=True)
    await keep_document(target, url, fetched, document)
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
                fetched = await fetch_document(target, file, "could not fetch")
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
        await keep_document(target, file, fetched, data)
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


def _parse_file(body: bytes, url: str, *, rewrite: bool) -> tuple[Any, list[tuple[str, str]]]:
    """The data of one file and its references to other files: ``(as written, absolute)``.

    With *rewrite* every ``$ref`` of the file is made absolute in place (the file is ours).
    """
    data = _documents.parse_document(body, where=public_url(url))  # looked up on the module: one parser
    if not _EXTERNAL_REF.search(body) and not rewrite:
        return data, []
    return data, external_refs(data, url, rewrite=rewrite)


def external_refs(data: Any, url: str, *, rewrite: bool) -> list[tuple[str, str]]:
    """The ``$ref`` values of *data* (read at *url*) that lead to another file, in document order."""
    out: list[tuple[str, str]] = []
    for node in objects_in(data, in_order=True):
        ref = node.get("$ref")
        if isinstance(ref, str):
            absolute = urljoin(url, ref)
            if rewrite:
                node["$ref"] = absolute
            if urldefrag(absolute).url != url:
                out.append((ref, absolute))
    return out
