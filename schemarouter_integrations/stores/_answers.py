"""The answer cache interface and the in-process cache: where answered records are kept.

An entry holds the canonical records one access path answered for one key (endpoint
fingerprint, canonical arguments, selected fields: see ``_caching/keys.py``), when it was
stored and how long it is fresh. Entries are kept for the longer of the fresh and the
stale window; the cache never holds credentials, only records.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import ConfigurationError

Clock = Callable[[], float]

__all__ = ["AnswerCache", "AnswerEntry", "MemoryAnswerCache"]


@dataclass(frozen=True, slots=True)
class AnswerEntry:
    """Records one access path answered: ``stored_at`` on the cache's :meth:`~AnswerCache.now`."""

    path: str
    records: list[dict[str, Any]]
    stored_at: float
    fresh_seconds: float
    provider: str | None = None
    access_mode: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def age(self, now: float) -> float:
        return max(0.0, now - self.stored_at)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "records": self.records,
            "stored_at": self.stored_at,
            "fresh_seconds": self.fresh_seconds,
            "provider": self.provider,
            "access_mode": self.access_mode,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> AnswerEntry:
        return cls(
            path=str(data["path"]),
            records=list(data["records"]),
            stored_at=float(data["stored_at"]),
            fresh_seconds=float(data["fresh_seconds"]),
            provider=data.get("provider"),
            access_mode=data.get("access_mode"),
        )


class AnswerCache(ABC):
    """Where answers are kept. Every method may fail as a miss: the router never lets a
    cache error fail a run (it logs and goes upstream)."""

    kind: str = "custom"
    shared: bool = False
    """True when other processes see the same entries (a fleet coalesces through locks)."""
    clock: Clock = staticmethod(time.monotonic)

    def attach(self, clock: Clock) -> None:
        """Give the cache the router's monotonic clock (the memory cache ages on it)."""
        self.clock = clock

    def now(self) -> float:
        """The time base of ``AnswerEntry.stored_at`` (the router's clock unless shared)."""
        return self.clock()

    @abstractmethod
    async def get(self, key: str) -> AnswerEntry | None:
        """The entry under *key* while it is kept, else None."""

    @abstractmethod
    async def put(self, key: str, entry: AnswerEntry, keep_seconds: float) -> None:
        """Keep *entry* under *key* for *keep_seconds* (replacing an older one)."""

    async def lock(self, key: str, seconds: float) -> bool:
        """Try to become the one process fetching *key* for *seconds*; True when it did."""
        return True

    async def unlock(self, key: str) -> None:
        """Give up the fetch lock of *key* (it expires on its own as well)."""
        return None

    async def start(self) -> None:
        """Start background work (``async with router:`` calls it)."""
        return None

    async def aclose(self) -> None:
        """Stop background work and close connections."""
        return None

    def size(self) -> int | None:
        """How many entries are kept (None when counting would cost a round trip)."""
        return None

    def status(self) -> dict[str, Any]:
        return {"kind": self.kind, "shared": self.shared, "entries": self.size()}


class MemoryAnswerCache(AnswerCache):
    """Answers kept in this process, at most *max_entries* (least recently used go first).

    Entries age on the router's ``clock``; an expired entry is dropped when it is read
    or when room is needed.
    """

    kind = "memory"

    def __init__(self, max_entries: int = 10_000) -> None:
        if isinstance(max_entries, bool) or not isinstance(max_entries, int) or max_entries < 1:
            raise ConfigurationError("max_entries must be a positive whole number")
        self.max_entries = max_entries
        self._entries: OrderedDict[str, tuple[float, AnswerEntry]] = OrderedDict()

    async def get(self, key: str) -> AnswerEntry | None:
        return self.get_now(key)

    def get_now(self, key: str) -> AnswerEntry | None:
        """:meth:`get` without awaiting (the memory cache does no I/O)."""
        kept = self._entries.get(key)
        if kept is None:
            return None
        until, entry = kept
        if self.clock() >= until:
            del self._entries[key]
            return None
        self._entries.move_to_end(key)
        return entry

    async def put(self, key: str, entry: AnswerEntry, keep_seconds: float) -> None:
        entries = self._entries
        entries[key] = (self.clock() + keep_seconds, entry)
        entries.move_to_end(key)
        while len(entries) > self.max_entries:
            entries.popitem(last=False)

    def size(self) -> int:
        return len(self._entries)

    def status(self) -> dict[str, Any]:
        return {**super().status(), "max_entries": self.max_entries}
