"""The default, in-process availability store."""

from __future__ import annotations

from ._base import AvailabilityMark, AvailabilityStore, live_mark, live_marks


class MemoryAvailabilityStore(AvailabilityStore):
    """Marks in a dict, for this process only; expired marks are dropped when read."""

    kind = "memory"

    def __init__(self) -> None:
        self._marks: dict[str, AvailabilityMark] = {}

    def get(self, path: str) -> AvailabilityMark | None:
        return live_mark(self._marks, path, self.clock())

    def active(self) -> dict[str, AvailabilityMark]:
        return live_marks(self._marks, self.clock())

    def mark_unavailable(self, mark: AvailabilityMark) -> None:
        self._marks[mark.path] = mark

    def mark_available(self, path: str) -> bool:
        return self.get(path) is not None and self._marks.pop(path, None) is not None
