"""The SQLite file behind :class:`~.SqliteStore`: tables, connections, failures (no policy here).

One file holds the state the processes of one host share::

    marks(path PRIMARY KEY, until, reason, failures)          -- cooldowns, wall-clock deadline
    answers(key PRIMARY KEY, value, stored_at, expires)       -- answer entries (JSON + digest)
    answer_locks(key PRIMARY KEY, token, expires)             -- who fetches a missing answer
    rate_limits(key PRIMARY KEY, tat)                         -- GCRA state, wall-clock seconds

Times are wall-clock seconds (``time.time()``): the processes of one host share that clock.
The file is created owner-only (0600) in WAL mode, so readers never wait for a writer and
writers wait for each other at most ``busy_timeout_seconds``. Each operation opens its own
connection (operations run on worker threads). Any SQLite or file error (locked too long, a
damaged file, a full disk) is raised as :class:`StoreUnavailable` through a :class:`Breaker`:
the callers count it as a miss, never as an error of the run.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn, TypeVar

from ..errors import ConfigurationError
from ._breaker import Breaker, StoreUnavailable

__all__ = ["SqliteFile", "StoreBusy"]

T = TypeVar("T")
logger = logging.getLogger("schemarouter_integrations.stores.sqlite")

SCHEMA = """
CREATE TABLE IF NOT EXISTS marks (
  path TEXT PRIMARY KEY, until REAL NOT NULL, reason TEXT, failures INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS answers (
  key TEXT PRIMARY KEY, value TEXT NOT NULL, stored_at REAL NOT NULL, expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS answer_locks (
  key TEXT PRIMARY KEY, token TEXT NOT NULL, expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS rate_limits (key TEXT PRIMARY KEY, tat REAL NOT NULL);
"""


class StoreBusy(StoreUnavailable):
    """Another writer held the file for the whole wait; the queued write is tried again later."""


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return "locked" in str(exc) or "busy" in str(exc)


class SqliteFile:
    """The state file at *path*: ``run(action)`` runs ``action(connection)`` in a transaction."""

    def __init__(self, path: str | os.PathLike[str], *, busy_timeout_seconds: float = 2.0) -> None:
        if not isinstance(path, str | os.PathLike) or not str(path):
            raise ConfigurationError("the state file must be a path")
        self.path = Path(path).expanduser()
        self.busy_timeout_seconds = float(busy_timeout_seconds)
        self.breaker = Breaker()
        self.errors = 0
        self.last_error: str | None = None
        self._ready = False
        self._lock = threading.Lock()

    def run(
        self,
        action: Callable[[sqlite3.Connection], T],
        *,
        timeout: float | None = None,
        deferrable: bool = False,
    ) -> T:
        """``action(connection)`` in one immediate transaction, committed on return; a failure
        is :class:`StoreUnavailable` (and counts towards the breaker).

        A *deferrable* write (one its caller keeps queued and writes again) that only finds the
        file locked by another writer is :class:`StoreBusy`: waiting is not a failure of the
        file, so it counts neither as an error nor towards the breaker."""
        self.breaker.check()
        try:
            connection = self._connect(self.busy_timeout_seconds if timeout is None else timeout)
            try:
                with connection:
                    connection.execute("BEGIN IMMEDIATE")
                    result = action(connection)
            finally:
                connection.close()
        except sqlite3.OperationalError as exc:
            if deferrable and _is_busy(exc):
                raise StoreBusy(str(exc)) from None
            self._failed(exc)
        except (sqlite3.Error, OSError, ValueError) as exc:
            self._failed(exc)
        self.breaker.succeeded()
        return result

    def _failed(self, exc: Exception) -> NoReturn:
        self.errors += 1
        self.last_error = f"{type(exc).__name__}: {exc}"[:300]
        self.breaker.failed()
        first = self.breaker.consecutive_failures == 1  # once per run of failures, then quietly
        logger.log(
            logging.WARNING if first else logging.DEBUG,
            "the state file %s failed (counted as a miss until it works again): %s",
            self.path,
            self.last_error,
        )
        raise StoreUnavailable(self.last_error) from None

    def _connect(self, timeout: float) -> sqlite3.Connection:
        if not self._ready:
            with self._lock:
                if not self._ready:
                    self._create(timeout)
        connection = sqlite3.connect(self.path, timeout=timeout, isolation_level=None)
        connection.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
        connection.execute("PRAGMA synchronous = NORMAL")  # WAL: no fsync at every commit
        return connection

    def _create(self, timeout: float) -> None:
        """Create the file (owner-only) and its tables once; WAL mode is kept in the file."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        os.close(os.open(self.path, os.O_CREAT | os.O_RDWR, 0o600))
        connection = sqlite3.connect(self.path, timeout=timeout, isolation_level=None)
        try:
            connection.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
            connection.execute("PRAGMA journal_mode = WAL")
            connection.executescript(SCHEMA)
        finally:
            connection.close()
        self._ready = True

    def status(self) -> dict[str, object]:
        return {
            "path": str(self.path),
            "errors": self.errors,
            "last_error": self.last_error,
            "breaker": self.breaker.status(),
        }
