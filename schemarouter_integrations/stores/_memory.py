"""The default, in-process availability store."""

from __future__ import annotations

from ._base import AvailabilityMark, AvailabilityStore, live_mark, live_marks


class MemoryAvailabilityStore(AvailabilityStore):
    """Marks in a dict, for this process only; expired marks are dropped when read."""

    kind = "memory"

    def __init__(self) -> None:
        self._marks: dict[str, AvailabilityMark] = {}

    def get(self, path: str) -> AvailabilityMark | None:
        if path not in self._marks:  # the common case: no mark, no clock read
            return None
        return live_mark(self._marks, path, self.clock())

    def active(self) -> dict[str, AvailabilityMark]:
        return live_marks(self._marks, self.clock())

    def mark_unavailable(self, mark: AvailabilityMark) -> None:
        self._marks[mark.path] = mark

    def mark_available(self, path: str) -> bool:
        mark = self._marks.pop(path, None)  # an expired mark goes as well, and clears nothing
        return mark is not None and mark.until > self.clock()
