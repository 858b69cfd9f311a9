"""The answer cache interface and the in-process cache: where answered records are kept.

An entry holds the canonical records one access path answered for one key (endpoint
fingerprint, canonical arguments, selected fields: see ``_caching/keys.py``), when it was
stored and how long it is fresh. Entries are kept for the longer of the fresh and the
stale window; the cache never holds credentials, only records. A stored entry carries a
digest of its content and is read as untrusted (:meth:`AnswerEntry.from_json`): anything
without the shape of an answer, or not matching its digest, is a miss.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import time
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import ConfigurationError

Clock = Callable[[], float]

__all__ = ["AnswerCache", "AnswerEntry", "MemoryAnswerCache", "content_digest"]


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
    total: int | None = None
    """The source's count of matching records, when its answer reported one."""
    more: bool = False
    """The source said it held more records than it sent."""

    def age(self, now: float) -> float:
        return max(0.0, now - self.stored_at)

    def digest(self) -> str:
        """sha256 over the entry's content (path, records, fresh time, provider, access mode,
        and the listing's count and whether it held more)."""
        return content_digest(
            self.path,
            self.records,
            self.fresh_seconds,
            self.provider,
            self.access_mode,
            total=self.total,
            more=self.more,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "records": self.records,
            "stored_at": self.stored_at,
            "fresh_seconds": self.fresh_seconds,
            "provider": self.provider,
            "access_mode": self.access_mode,
            "total": self.total,
            "more": self.more,
            "digest": self.digest(),
        }

    @classmethod
    def from_json(cls, data: Any, *, stored_at: float | None = None) -> AnswerEntry:
        """The entry of a stored value read as untrusted: a ``ValueError`` unless it has the
        shape of an answer (records: a list of JSON objects) and matches its digest.
        *stored_at* replaces the stored stamp (a store that stamps on its own clock)."""
        if not isinstance(data, dict):
            raise ValueError("an answer entry must be a JSON object")
        path, records, digest = data.get("path"), data.get("records"), data.get("digest")
        provider, mode = data.get("provider"), data.get("access_mode")
        if not isinstance(path, str) or not path or not isinstance(digest, str):
            raise ValueError("an answer entry needs a path and a digest")
        if not isinstance(records, list) or not all(_is_record(r) for r in records):
            raise ValueError("the records of an answer must be a list of objects")
        if not all(v is None or isinstance(v, str) for v in (provider, mode)):
            raise ValueError("provider and access_mode must be text")
        total, more = data.get("total"), data.get("more", False)
        if total is not None and (isinstance(total, bool) or not isinstance(total, int) or total < 0):
            raise ValueError("total must be a whole number of records")
        if not isinstance(more, bool):
            raise ValueError("more must be true or false")
        fresh = _finite(data.get("fresh_seconds"))
        stamp = _finite(data.get("stored_at") if stored_at is None else stored_at)
        if fresh < 0:
            raise ValueError("fresh_seconds must not be negative")
        entry = cls(path, records, stamp, fresh, provider, mode, total=total, more=more)
        if not hmac.compare_digest(entry.digest(), digest):
            raise ValueError("the entry does not match its digest")
        return entry


def content_digest(
    path: str,
    records: list[dict[str, Any]],
    fresh: float,
    provider: str | None,
    mode: str | None,
    *,
    total: int | None = None,
    more: bool = False,
) -> str:
    """The digest an :class:`AnswerEntry` carries (canonical JSON of its content)."""
    material = json.dumps(
        ["schemarouter-answer/2", path, records, fresh, provider, mode, total, more],
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        allow_nan=False,
    )
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


def _is_record(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(key, str) for key in value)


def _finite(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"not a finite number: {value!r}")
    return float(value)


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
