"""The answer cache and the rate limiter of :class:`~.SqliteStore`, on its state file.

Both run their SQLite work on a worker thread (the event loop never waits on the file) and
count a failure of the file as a miss: an answer cache that fails is asked nothing more in
that question, a rate limiter that fails lets the call go. Times in the file are wall-clock
seconds (one host, one clock); ages handed to the router are converted to its own clock.
"""

from __future__ import annotations

import json
import logging
import math
import sqlite3
import time
import uuid
from typing import Any

import anyio.to_thread

from ._answers import AnswerCache, AnswerEntry
from ._breaker import StoreUnavailable
from ._ratelimit import RateLimiterBackend, gcra_reserve
from ._sqlite_db import SqliteFile

__all__ = ["SqliteAnswerCache", "SqliteRateLimiter"]

logger = logging.getLogger("schemarouter_integrations.stores.sqlite")
_PURGE_EVERY = 100
"""Expired answers and locks are deleted at every this many writes."""
_MAX_AHEAD_SECONDS = 86_400.0


class SqliteAnswerCache(AnswerCache):
    """Answers shared by the processes of one host through the state file."""

    kind = "sqlite"
    shared = True

    def __init__(self, file: SqliteFile) -> None:
        self.file = file
        self._token = uuid.uuid4().hex
        self._writes = 0
        self.damaged = 0
        """Entries read back that had no answer's shape or broke their digest (misses)."""

    async def get(self, key: str) -> AnswerEntry | None:
        def read(db: sqlite3.Connection) -> tuple[Any, Any] | None:
            row = db.execute(
                "SELECT value, stored_at FROM answers WHERE key = ? AND expires > ?", (key, time.time())
            ).fetchone()
            return None if row is None else (row[0], row[1])

        found = await anyio.to_thread.run_sync(self.file.run, read)
        if found is None:
            return None
        value, stored_at = found
        try:
            age = max(0.0, time.time() - float(stored_at))
            if not isinstance(value, str):
                raise ValueError("an answer entry must be text")
            return AnswerEntry.from_json(json.loads(value), stored_at=self.now() - age)
        except (TypeError, ValueError) as exc:
            self.damaged += 1
            logger.warning("a damaged answer entry in %s was ignored (a miss): %s", self.file.path, exc)
            return None

    async def put(self, key: str, entry: AnswerEntry, keep_seconds: float) -> None:
        value = json.dumps(entry.to_json())
        self._writes += 1
        purge = self._writes % _PURGE_EVERY == 0

        def write(db: sqlite3.Connection) -> None:
            now = time.time()
            db.execute(
                "INSERT OR REPLACE INTO answers (key, value, stored_at, expires) VALUES (?, ?, ?, ?)",
                (key, value, now, now + keep_seconds),
            )
            if purge:
                db.execute("DELETE FROM answers WHERE expires <= ?", (now,))
                db.execute("DELETE FROM answer_locks WHERE expires <= ?", (now,))

        await anyio.to_thread.run_sync(self.file.run, write)

    async def lock(self, key: str, seconds: float) -> bool:
        def take(db: sqlite3.Connection) -> bool:
            now = time.time()
            db.execute("DELETE FROM answer_locks WHERE key = ? AND expires <= ?", (key, now))
            cursor = db.execute(
                "INSERT OR IGNORE INTO answer_locks (key, token, expires) VALUES (?, ?, ?)",
                (key, self._token, now + seconds),
            )
            return cursor.rowcount == 1

        return await anyio.to_thread.run_sync(self.file.run, take)

    async def unlock(self, key: str) -> None:
        def give_up(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM answer_locks WHERE key = ? AND token = ?", (key, self._token))

        await anyio.to_thread.run_sync(self.file.run, give_up)

    def size(self) -> int | None:
        """How many answers the file keeps (None when it cannot be read)."""
        try:
            counted: int = self.file.run(
                lambda db: db.execute(
                    "SELECT count(*) FROM answers WHERE expires > ?", (time.time(),)
                ).fetchone()[0]
            )
        except StoreUnavailable:
            return None
        return counted

    def status(self) -> dict[str, Any]:
        return {**super().status(), **self.file.status(), "damaged": self.damaged}


class SqliteRateLimiter(RateLimiterBackend):
    """GCRA state shared by the processes of one host (one transaction per reservation)."""

    kind = "sqlite"
    shared = True

    def __init__(self, file: SqliteFile) -> None:
        self.file = file

    async def reserve(self, key: str, per_second: float, burst: float, max_wait: float) -> float | None:
        def reserve(db: sqlite3.Connection) -> float | None:
            row = db.execute("SELECT tat FROM rate_limits WHERE key = ?", (key,)).fetchone()
            now = time.time()
            tat = row[0] if row is not None and isinstance(row[0], float) and math.isfinite(row[0]) else None
            if tat is not None and tat > now + _MAX_AHEAD_SECONDS:
                tat = None  # untrusted: no real bucket is a day ahead
            wait, new_tat = gcra_reserve(tat, now, per_second, burst, max_wait)
            if new_tat is not None:
                db.execute("INSERT OR REPLACE INTO rate_limits (key, tat) VALUES (?, ?)", (key, new_tat))
            return wait

        try:
            return await anyio.to_thread.run_sync(self.file.run, reserve)
        except StoreUnavailable:
            return 0.0  # the call goes (the provider's own limit still answers)

    def status(self) -> dict[str, Any]:
        return {**super().status(), **self.file.status()}
