"""The last good copy of every fetched document, kept on disk (``SchemaRouter(document_cache=DIR)``).

One file per URL, named by the SHA-256 of the URL, holding the body as fetched, its content
type, its validators (``ETag``, ``Last-Modified``) and when it was stored; never a request
header, and never a body that contains a secret the request carried (a header value, a
value of the URL's query). Files are written atomically (a temporary file in the same
folder, then a rename), readable by the owner only.

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
from urllib.parse import parse_qsl, urlsplit

import anyio.to_thread

__all__ = ["CachedDocument", "DocumentCache", "StaleUse", "document_cache_in_use", "using"]

logger = logging.getLogger("schemarouter_integrations.documents")

FORMAT = 1
MIN_SECRET_LENGTH = 8
"""Query values at least this long are treated as secrets (an ``api_key=`` in a URL)."""


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
        """``If-None-Match`` / ``If-Modified-Since`` for a conditional request."""
        headers = {}
        if self.etag:
            headers["if-none-match"] = self.etag
        if self.last_modified:
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
            return CachedDocument(
                body=base64.b64decode(data["body"], validate=True),
                content_type=str(data.get("content_type") or ""),
                etag=_text_or_none(data.get("etag")),
                last_modified=_text_or_none(data.get("last_modified")),
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
    ) -> None:
        """Keep *body* as the last good copy of *url* (unless it contains a secret).

        *public_url* (no query, no user info) is written for people reading the folder;
        *validators* holds the response's ``etag`` / ``last-modified``. A failure to write
        is logged once and otherwise ignored: the cache never fails a registration.
        """
        self.fresh(public_url)
        carried = [s for s in (*secrets, *query_secrets(url)) if s]
        if any(secret.encode() in body for secret in carried):
            logger.info("not keeping a copy of %s: it contains a value the request carried", public_url)
            return
        record = {
            "format": FORMAT,
            "url": public_url,
            "stored_at": self.clock(),
            "content_type": content_type,
            "etag": validators.get("etag"),
            "last_modified": validators.get("last-modified"),
            "body": base64.b64encode(body).decode("ascii"),
        }
        data = json.dumps(record).encode()
        try:
            await anyio.to_thread.run_sync(self._write, self.path_for(url), data)
        except OSError as exc:
            if not self._write_failed:
                self._write_failed = True
                logger.warning("cannot keep document copies in %s: %s", self.directory, exc)

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


def _text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


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
