"""The default, in-process availability store."""

from __future__ import annotations

from ._base import AvailabilityMark, AvailabilityStore


class MemoryAvailabilityStore(AvailabilityStore):
    """Marks in a dict, for this process only; expired marks are dropped when read."""

    kind = "memory"

    def __init__(self) -> None:
        self._marks: dict[str, AvailabilityMark] = {}

    def get(self, path: str) -> AvailabilityMark | None:
        mark = self._marks.get(path)
        if mark is None:
            return None
        if mark.until <= self.clock():
            self._marks.pop(path, None)
            return None
        return mark

    def active(self) -> dict[str, AvailabilityMark]:
        now = self.clock()
        for path in [p for p, m in self._marks.items() if m.until <= now]:
            del self._marks[path]
        return dict(self._marks)

    def mark_unavailable(self, mark: AvailabilityMark) -> None:
        self._marks[mark.path] = mark

    def mark_available(self, path: str) -> bool:
        return self.get(path) is not None and self._marks.pop(path, None) is not None
