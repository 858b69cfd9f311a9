"""State that outlives one process: cooldowns, answers and rate limits in one SQLite file.

``SqliteStore(path)`` is the availability store (cooldowns) of every router that opens the
same file on one host, and carries that file's answer cache (``.answers``) and rate limiter
(``.rate_limits``)::

    store = SqliteStore("~/.cache/schemarouter/state.db")
    router = SchemaRouter(availability_store=store, answer_cache=store.answers,
                          rate_limiter=store.rate_limits)

Planning reads cooldowns from a local view without I/O. A mark or a reopen is written to the
file at once (a short transaction; when the file is busy or failing it is queued and written
by the background refresher), the view is loaded from the file on first use and on
``start()``, and refreshed every ``refresh_seconds`` while the router is entered, so a route
one process found down is skipped by the next. Deadlines are kept as wall-clock times in the
file and become deadlines on the router's own clock when read. A damaged or unreadable file
is a miss (no marks, no answers, calls not limited), never a crash: ``status()`` says so.
For a fleet of hosts use :class:`RedisStore`.
"""

from __future__ import annotations

import logging
import math
import os
import sqlite3
import time
from contextlib import AsyncExitStack
from typing import Any

import anyio
import anyio.abc
import anyio.to_thread

from ..errors import ConfigurationError
from ._base import AvailabilityMark, AvailabilityStore, live_mark, live_marks
from ._breaker import StoreUnavailable
from ._sqlite_db import SqliteFile, StoreBusy
from ._sqlite_parts import SqliteAnswerCache, SqliteRateLimiter

__all__ = ["SqliteStore"]

logger = logging.getLogger("schemarouter_integrations.stores.sqlite")
_WRITE_NOW_SECONDS = 0.2
"""How long a mark written from the event loop may wait for a busy file (then it is queued)."""


class SqliteStore(AvailabilityStore):
    """Cooldowns, answers and rate limits shared by the processes of one host (one file)."""

    kind = "sqlite"

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        refresh_seconds: float = 1.0,
        busy_timeout_seconds: float = 2.0,
    ) -> None:
        timings = (refresh_seconds, busy_timeout_seconds)
        if not all(isinstance(t, int | float) and math.isfinite(t) and t > 0 for t in timings):
            raise ConfigurationError("refresh_seconds and busy_timeout_seconds must be positive seconds")
        self.file = SqliteFile(path, busy_timeout_seconds=busy_timeout_seconds)
        self.path = self.file.path
        self.refresh_seconds = float(refresh_seconds)
        self.answers = SqliteAnswerCache(self.file)
        """The answer cache on this file (``SchemaRouter(answer_cache=store.answers)``)."""
        self.rate_limits = SqliteRateLimiter(self.file)
        """The rate limiter on this file (``SchemaRouter(rate_limiter=store.rate_limits)``)."""
        self._marks: dict[str, AvailabilityMark] = {}
        self._pending: dict[str, AvailabilityMark | None] = {}  # not in the file yet (None: reopen)
        self._loaded = False
        self._busy = 0  # queued writes that found the file held by another writer (status "busy")
        self._busy_until = 0.0
        self._stack: AsyncExitStack | None = None
        self._group: anyio.abc.TaskGroup | None = None

    # -- the local view (sync) -----------------------------------------------------------
    def get(self, path: str) -> AvailabilityMark | None:
        self._load_once()
        return live_mark(self._marks, path, self.clock())

    def active(self) -> dict[str, AvailabilityMark]:
        self._load_once()
        return live_marks(self._marks, self.clock())

    def mark_unavailable(self, mark: AvailabilityMark) -> None:
        self._marks[mark.path] = mark
        self._pending[mark.path] = mark
        self._write_now()

    def mark_available(self, path: str) -> bool:
        was_active = self.get(path) is not None
        self._marks.pop(path, None)
        self._pending[path] = None
        self._write_now()
        return was_active

    # -- lifecycle -------------------------------------------------------------------------
    async def start(self) -> None:
        """Load the marks of the file, then refresh them every ``refresh_seconds``."""
        if self._stack is not None:
            return
        await anyio.to_thread.run_sync(self._sync)
        stack = AsyncExitStack()
        self._group = await stack.enter_async_context(anyio.create_task_group())
        self._group.start_soon(self._refresh, name="schemarouter-sqlite-store")
        self._stack = stack

    async def aclose(self) -> None:
        """Write what is still queued (briefly), then stop refreshing."""
        stack, group = self._stack, self._group
        self._stack = self._group = None
        if stack is None or group is None:
            return
        with anyio.move_on_after(self.file.busy_timeout_seconds, shield=True):
            await self.flush()
        group.cancel_scope.cancel()
        await stack.aclose()

    async def flush(self) -> None:
        if self._pending:
            await anyio.to_thread.run_sync(self._write_pending, None)

    def status(self) -> dict[str, Any]:
        file = self.file.status()
        return {
            "kind": self.kind,
            "shared": True,
            "connected": self.file.breaker.consecutive_failures == 0,
            "last_error": file["last_error"],
            "marks": len(self.active()),
            "pending_writes": len(self._pending),
            "busy": self._busy,
            "path": file["path"],
            "breaker": file["breaker"],
        }

    # -- the file ----------------------------------------------------------------------------
    def _load_once(self) -> None:
        if not self._loaded:
            self._loaded = True
            self._sync()

    def _sync(self) -> None:
        """Write what is queued, then take the file's marks as the local view."""
        self._loaded = True
        self._write_pending(None)
        try:
            rows = self.file.run(
                lambda db: db.execute("SELECT path, until, reason, failures FROM marks").fetchall()
            )
        except StoreUnavailable:
            return  # keep the local view
        wall, now = time.time(), self.clock()
        marks: dict[str, AvailabilityMark] = {}
        for row in rows:
            mark = _mark(row, wall, now)
            if mark is not None:
                marks[mark.path] = mark
        for path, change in self._pending.items():  # still not written: ours is newer
            if change is None:
                marks.pop(path, None)
            else:
                marks[path] = change
        self._marks = marks

    def _write_now(self) -> None:
        """Write the queue from the event loop, briefly; after the file was found busy, leave it
        to the refresher until its next round (the loop never waits on a held file twice)."""
        if time.monotonic() >= self._busy_until:
            self._write_pending(_WRITE_NOW_SECONDS)

    def _write_pending(self, timeout: float | None) -> None:
        if not self._pending:
            return
        changes = dict(self._pending)
        wall, now = time.time(), self.clock()

        def write(db: sqlite3.Connection) -> None:
            for path, mark in changes.items():
                if mark is None:
                    db.execute("DELETE FROM marks WHERE path = ?", (path,))
                else:
                    until = wall + min(mark.until - now, 1e12)
                    db.execute(
                        "INSERT OR REPLACE INTO marks (path, until, reason, failures) VALUES (?, ?, ?, ?)",
                        (path, until, mark.reason, mark.failures),
                    )
                    db.execute("DELETE FROM marks WHERE until <= ?", (wall,))

        try:
            self.file.run(write, timeout=timeout, deferrable=True)
        except StoreBusy:
            self._busy += 1
            self._busy_until = time.monotonic() + self.refresh_seconds
            return  # stays queued: the refresher tries again
        except StoreUnavailable:
            return  # stays queued: the refresher tries again
        for path, change in changes.items():
            if self._pending.get(path, change) is change:
                self._pending.pop(path, None)

    async def _refresh(self) -> None:
        while True:
            await anyio.sleep(self.refresh_seconds)
            await anyio.to_thread.run_sync(self._sync)


def _mark(row: Any, wall: float, now: float) -> AvailabilityMark | None:
    """A mark read from the file (untrusted): None unless every column has its type."""
    path, until, reason, failures = row
    if (
        not isinstance(path, str)
        or not path
        or not isinstance(until, int | float)
        or not math.isfinite(until)
    ):
        return None
    if not (reason is None or isinstance(reason, str)) or not isinstance(failures, int) or until <= wall:
        return None
    return AvailabilityMark(path, now + (until - wall), reason, max(1, failures))
