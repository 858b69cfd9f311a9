"""The availability store interface: where cooldown marks live.

Planning reads marks synchronously from a local view (no I/O per plan). Stores that share
marks with other processes keep that view current in the background: ``start()`` launches
that work and ``aclose()`` stops it (``async with router:`` calls both).
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Self

from .._closing import ClosesOnExit

Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class AvailabilityMark:
    """An access path out of planning until ``until`` (seconds on the router's clock)."""

    path: str
    until: float
    reason: str | None = None
    failures: int = 1


def live_mark(marks: dict[str, AvailabilityMark], path: str, now: float) -> AvailabilityMark | None:
    """The mark of *path* in *marks* unless it has expired by *now* (then it is dropped)."""
    mark = marks.get(path)
    if mark is None:
        return None
    if mark.until <= now:
        marks.pop(path, None)
        return None
    return mark


def live_marks(marks: dict[str, AvailabilityMark], now: float) -> dict[str, AvailabilityMark]:
    """A copy of the marks in *marks* that have not expired by *now* (the others are dropped)."""
    for path in [p for p, m in marks.items() if m.until <= now]:
        del marks[path]
    return dict(marks)


class AvailabilityStore(ClosesOnExit, ABC):
    """Holds unavailable marks; every mark expires on its own.

    ``get``, ``active``, ``mark_unavailable`` and ``mark_available`` are synchronous and
    touch only the local view, so planning and execution never wait on a network.
    """

    #: Short name shown as ``kind`` in ``status()``.
    kind: str = "custom"
    clock: Clock = staticmethod(time.monotonic)

    def attach(self, clock: Clock) -> None:
        """Give the store the router's monotonic clock."""
        self.clock = clock

    @abstractmethod
    def get(self, path: str) -> AvailabilityMark | None:
        """The active (unexpired) mark of *path*, from the local view."""

    @abstractmethod
    def active(self) -> dict[str, AvailabilityMark]:
        """Every active mark, from the local view."""

    def shared_until(self, path: str) -> float | None:
        """When the active mark of *path* ends for the whole fleet (None: no active mark).

        A shared store may hold a peer's mark locally a little longer than it is shared (a
        grace period); decisions that lengthen a mark start from this deadline, not from the
        local one, so that grace never turns into a longer shared cooldown.
        """
        mark = self.get(path)
        return None if mark is None else mark.until

    @abstractmethod
    def mark_unavailable(self, mark: AvailabilityMark) -> None:
        """Record *mark* locally at once (and share it, for shared stores)."""

    @abstractmethod
    def mark_available(self, path: str) -> bool:
        """Clear the mark of *path*; True when there was an active one."""

    async def start(self) -> None:  # an optional hook
        """Start background services (shared stores)."""

    async def aclose(self) -> None:  # an optional hook
        """Stop background services."""

    async def flush(self) -> None:  # an optional hook
        """Wait until local changes are shared (at once for local stores).

        A shared store waits as long as its server is away: bound it with
        ``anyio.move_on_after``/``fail_after``.
        """

    def status(self) -> dict[str, Any]:
        """What inspect() shows about this store: ``kind``, ``shared``, ``connected``,
        ``last_error`` and ``marks`` (never secrets)."""
        return {
            "kind": self.kind,
            "shared": False,
            "connected": True,
            "last_error": None,
            "marks": len(self.active()),
        }

    async def __aenter__(self) -> Self:
        await self.start()
        return self
