"""The Redis store's local mirror: versioned marks and tombstones, read without I/O.

Planning reads the mirror synchronously. Local changes are stamped with a version from a
hybrid logical clock (wall-clock microseconds, never behind a version seen) and queued for
the writer; changes read from Redis or its channel replace an entry only when newer. A
reopen leaves a *tombstone* that outlives every copy of the mark it ended.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ._base import AvailabilityMark
from ._redis_wire import Entry, Version

Clock = Callable[[], float]


class VersionedMirror:
    """The mirror of one store: ``entries`` (marks and tombstones) and ``pending`` writes."""

    def __init__(self, instance_id: str, peer_grace_seconds: float) -> None:
        self.instance_id = instance_id
        self.peer_grace_seconds = peer_grace_seconds
        self.entries: dict[str, Entry] = {}
        self.pending: dict[str, Entry] = {}  # local changes not yet written, oldest first
        self._last_us = 0

    # -- reading ---------------------------------------------------------------------
    def get(self, path: str, now: float) -> AvailabilityMark | None:
        entry = self.entries.get(path)
        if entry is None:
            return None
        if entry.cleared:
            if now >= entry.shared_until:
                del self.entries[path]
            return None
        if entry.mark.until > now:
            return entry.mark
        if now >= self.peer_deadline(entry):
            del self.entries[path]
        return None

    def active(self, now: float) -> dict[str, AvailabilityMark]:
        return {path: mark for path in list(self.entries) if (mark := self.get(path, now)) is not None}

    def peer_deadline(self, entry: Entry) -> float:
        """Until when peers may still hold *entry* (our own marks: Redis TTL plus their grace)."""
        if entry.origin == self.instance_id:
            return entry.shared_until + self.peer_grace_seconds
        return entry.mark.until

    # -- local changes ---------------------------------------------------------------
    def mark(self, mark: AvailabilityMark) -> Entry:
        """Record *mark* with a new version; the entry to write."""
        entry = Entry(mark, self.instance_id, mark.until, self._next_version())
        self.entries[mark.path] = entry
        return self._queue(entry)

    def clear(self, path: str, now: float) -> tuple[bool, Entry | None]:
        """Reopen *path*: whether a mark was active here, and the tombstone to write (None
        when no copy of the mark can be left anywhere)."""
        entry = self.entries.get(path)
        if entry is None or entry.cleared:
            return False, None
        was_active = entry.mark.until > now
        deadline = self.peer_deadline(entry)
        if not was_active and now >= deadline:
            del self.entries[path]
            return False, None
        # our own mark may have ended here while peers still hold it for the grace period
        until = max(entry.shared_until + self.peer_grace_seconds, deadline, now + 0.001)
        tombstone = Entry(entry.mark, self.instance_id, until, self._next_version(), cleared=True)
        self.entries[path] = tombstone
        return was_active, self._queue(tombstone)

    def _queue(self, entry: Entry) -> Entry:
        path = entry.mark.path
        self.pending.pop(path, None)
        self.pending[path] = entry
        return entry

    def _next_version(self) -> Version:
        self._last_us = max(time.time_ns() // 1000, self._last_us + 1)
        return (self._last_us, self.instance_id)

    # -- changes from Redis ----------------------------------------------------------
    def apply(self, entry: Entry) -> bool:
        """Take a published change when it is newer than what the mirror holds (our own
        echoes and stale peers are not); True when it changed the mirror."""
        self._saw(entry.version)
        path = entry.mark.path
        current = self.entries.get(path)
        if current is not None and current.version >= entry.version:
            return False
        queued = self.pending.get(path)
        if queued is not None and queued.version < entry.version:
            del self.pending[path]  # superseded: the compare-and-set would refuse it anyway
        self.entries[path] = entry
        return True

    def replace(self, loaded: dict[str, Entry]) -> int:
        """Take what Redis holds; a newer local change still queued stays. Active marks."""
        for entry in loaded.values():
            self._saw(entry.version)
        for path, entry in self.pending.items():
            stored = loaded.get(path)
            if stored is None or entry.version > stored.version:
                loaded[path] = entry
        self.entries = loaded
        return sum(1 for entry in loaded.values() if not entry.cleared)

    def _saw(self, version: Version) -> None:
        self._last_us = max(self._last_us, version[0])
