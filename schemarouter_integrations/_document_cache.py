"""The last good copy of every fetched document, kept on disk (``SchemaRouter(document_cache=DIR)``).

One file per URL, named by the SHA-256 of the URL, holding the body as fetched, its content
type, its validators (``ETag``, ``Last-Modified``) and when it was stored; never a request
header, and never a body that contains a secret the request carried (a header value, the
token after its scheme word, a value of the URL's query, or a long run of one), however the
body writes it (as is, JSON- or URL-escaped: the strings of the parsed document are searched
too). Files are written atomically (a temporary file in the same folder, then a rename),
readable by the owner only.

A file is read as untrusted: it names the SHA-256 of the URL it was fetched from and of its
body, and a file whose URL or body does not match (a copy of another API's file put under
this name, a body changed in place) is no copy at all. A validator that is not a valid
header value (a non-ASCII ``ETag``) is neither kept nor sent back.

The one document loader (``adapters/_documents.load_document``) uses the cache of the
router that is registering a route (:func:`using`, set by ``add_url`` and
``add_optimade_federation``): it sends a conditional request when a copy exists (a 304
answer means the copy is current) and serves the copy when the source cannot be reached
(a refused connection, a timeout, a 5xx), never after a 4xx. The copies served that way
are listed, with their age, by :meth:`DocumentCache.in_use` (``inspect().documents``).
This module knows nothing of HTTP: the loader tells it what happened.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import html
import json
import logging
import os
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

import anyio.to_thread

from ._headers import is_header_value
from ._redaction import reveals

__all__ = ["CachedDocument", "DocumentCache", "StaleUse", "document_cache_in_use", "using"]

logger = logging.getLogger("schemarouter_integrations.documents")

FORMAT = 2
MIN_SECRET_LENGTH = 8
"""Query values at least this long are treated as secrets (an ``api_key=`` in a URL)."""
MAX_VALIDATOR_CHARS = 1024
_DOCUMENT_STRINGS = 5_000_000
"""The most strings of a parsed document searched for secrets (then the copy is not kept)."""


@dataclass(frozen=True, slots=True)
class CachedDocument:
    """One stored copy: the body as fetched and what is needed to revalidate it."""

    body: bytes
    content_type: str
    etag: str | None
    last_modified: str | None
    stored_at: float
    """Wall-clock seconds (``time.time()``) when the copy was fetched."""

    def conditional_headers(self) -> dict[str, str]:
        """``If-None-Match`` / ``If-Modified-Since`` for a conditional request (only validators
        that are valid header values: a bad one is never sent)."""
        headers = {}
        if self.etag and _sendable(self.etag):
            headers["if-none-match"] = self.etag
        if self.last_modified and _sendable(self.last_modified):
            headers["if-modified-since"] = self.last_modified
        return headers


@dataclass(frozen=True, slots=True)
class StaleUse:
    """A copy served because its source could not be reached."""

    stored_at: float
    reason: str


class DocumentCache:
    """A folder of last good copies; *clock* is the wall clock (ages are reported with it)."""

    def __init__(self, directory: str | os.PathLike[str], *, clock: Callable[[], float] = time.time) -> None:
        self.directory = Path(directory)
        self.clock = clock
        self._in_use: dict[str, StaleUse] = {}
        self._write_failed = False

    def path_for(self, url: str) -> Path:
        return self.directory / f"{hashlib.sha256(url.encode()).hexdigest()}.json"

    # -- reading and writing copies ---------------------------------------------------
    async def read(self, url: str) -> CachedDocument | None:
        """The stored copy of *url*, or None (none, or unreadable: it is then ignored)."""
        return await anyio.to_thread.run_sync(self._read, url)

    def _read(self, url: str) -> CachedDocument | None:
        path = self.path_for(url)
        try:
            data = json.loads(path.read_bytes())
            if data.get("format") != FORMAT:
                return None
            body = base64.b64decode(data["body"], validate=True)
            if data["url_sha256"] != _sha256(url.encode()) or data["body_sha256"] != _sha256(body):
                logger.info(
                    "ignoring the document copy %s: it is not the copy of %s", path.name, data.get("url")
                )
                return None
            return CachedDocument(
                body=body,
                content_type=str(data.get("content_type") or ""),
                etag=_validator(data.get("etag")),
                last_modified=_validator(data.get("last_modified")),
                stored_at=float(data["stored_at"]),
            )
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            logger.debug("ignoring the unreadable document copy %s: %s", path.name, type(exc).__name__)
            return None

    async def store(
        self,
        url: str,
        public_url: str,
        *,
        body: bytes,
        content_type: str,
        validators: Mapping[str, str],
        secrets: Iterable[str] = (),
        document: Any = None,
    ) -> None:
        """Keep *body* as the last good copy of *url* (unless it reveals a secret).

        *public_url* (no query, no user info) is written for people reading the folder;
        *validators* holds the response's ``etag`` / ``last-modified``; *document* is the
        parsed body (its strings, escapes decoded, are searched for secrets too). A failure
        to write is logged once and otherwise ignored: the cache never fails a registration.
        """
        self.fresh(public_url)
        carried = tuple(s for s in (*secrets, *query_secrets(url)) if s)
        record = {
            "format": FORMAT,
            "url": public_url,
            "url_sha256": _sha256(url.encode()),
            "body_sha256": _sha256(body),
            "stored_at": self.clock(),
            "content_type": content_type,
            "etag": _validator(validators.get("etag")),
            "last_modified": _validator(validators.get("last-modified")),
            "body": base64.b64encode(body).decode("ascii"),
        }
        try:
            await anyio.to_thread.run_sync(self._keep, url, public_url, record, body, document, carried)
        except OSError as exc:
            if not self._write_failed:
                self._write_failed = True
                logger.warning("cannot keep document copies in %s: %s", self.directory, exc)

    def _keep(
        self,
        url: str,
        public_url: str,
        record: dict[str, Any],
        body: bytes,
        document: Any,
        carried: tuple[str, ...],
    ) -> None:
        if carried and _reveals(body, document, carried):
            logger.info("not keeping a copy of %s: it contains a value the request carried", public_url)
            return
        self._write(self.path_for(url), json.dumps(record).encode())

    def _write(self, path: Path, data: bytes) -> None:
        self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        handle, temporary = tempfile.mkstemp(dir=self.directory, prefix=".", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(data)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise

    # -- which copies are in use ------------------------------------------------------
    def served_stale(self, public_url: str, copy: CachedDocument, reason: str) -> None:
        """*copy* stands in for *public_url*, whose source could not be reached (logged once)."""
        if public_url not in self._in_use:
            logger.warning(
                "using the copy of %s stored %.0f s ago: the source cannot be reached (%s)",
                public_url,
                max(self.clock() - copy.stored_at, 0.0),
                reason,
            )
        self._in_use[public_url] = StaleUse(copy.stored_at, reason)

    def fresh(self, public_url: str) -> None:
        """*public_url* was read from its source again (or revalidated by a 304)."""
        if self._in_use.pop(public_url, None) is not None:
            logger.info("%s is read from its source again", public_url)

    def in_use(self) -> dict[str, dict[str, Any]]:
        """Copies standing in for unreachable sources: public URL -> age, stored_at, reason."""
        now = self.clock()
        return {
            url: {
                "age_seconds": round(max(now - use.stored_at, 0.0), 3),
                "stored_at": datetime.fromtimestamp(use.stored_at, UTC).isoformat(timespec="seconds"),
                "reason": use.reason,
            }
            for url, use in sorted(self._in_use.items())
        }


def query_secrets(url: str) -> list[str]:
    """Values of *url* that may be secrets: long query values and a user-info password."""
    try:
        parts = urlsplit(url)
        values = [value for _, value in parse_qsl(parts.query, keep_blank_values=False)]
        password = parts.password
    except ValueError:
        return []
    if password:
        values.append(password)
    return [value for value in values if len(value) >= MIN_SECRET_LENGTH]


def _validator(value: Any) -> str | None:
    """*value* when it is a validator that can be sent back, else None."""
    return value if isinstance(value, str) and value and _sendable(value) else None


def _sendable(text: str) -> bool:
    return is_header_value(text, max_chars=MAX_VALIDATOR_CHARS)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _reveals(body: bytes, document: Any, secrets: tuple[str, ...]) -> bool:
    """Whether *body*, or any string of its parsed *document*, holds one of *secrets*."""
    raw = body.decode("utf-8", errors="replace")
    texts = [raw, unquote(raw), html.unescape(raw)]
    strings = _strings(document)
    if strings is None:
        return True  # too many strings to search: not kept rather than kept unsearched
    if strings:
        joined = "\n".join(strings)
        texts += [joined, unquote(joined), html.unescape(joined)]
    return reveals(texts, secrets)


def _strings(document: Any) -> list[str] | None:
    """Every key and string value of *document* (None: more than the bound)."""
    out: list[str] = []
    pending = [document]
    while pending:
        node = pending.pop()
        if isinstance(node, str):
            out.append(node)
        elif isinstance(node, dict):
            out.extend(str(key) for key in node)
            pending.extend(node.values())
        elif isinstance(node, list):
            pending.extend(node)
        if len(out) + len(pending) > _DOCUMENT_STRINGS:
            return None
    return out


_CURRENT: ContextVar[DocumentCache | None] = ContextVar("schemarouter_document_cache", default=None)


def document_cache_in_use() -> DocumentCache | None:
    """The cache of the router registering a route in this context (None: no cache)."""
    return _CURRENT.get()


@contextlib.contextmanager
def using(cache: DocumentCache | None) -> Iterator[None]:
    """Documents loaded inside the block (and tasks started in it) go through *cache*."""
    token = _CURRENT.set(cache)
    try:
        yield
    finally:
        _CURRENT.reset(token)
