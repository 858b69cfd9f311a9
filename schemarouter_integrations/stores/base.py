"""The availability store interface: where cooldown marks live.

Planning reads marks synchronously from a local view (no I/O per plan). Stores that share
marks with other processes keep that view current in the background.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class AvailabilityMark:
    """An access path out of planning until ``until`` (seconds on the router's clock)."""

    path: str
    until: float
    reason: str | None = None
    failures: int = 1


class AvailabilityStore(ABC):
    """Holds unavailable marks; every mark expires on its own."""

    clock: Clock

    def attach(self, clock: Clock) -> None:
        """Give the store the router's monotonic clock."""
        self.clock = clock

    @abstractmethod
    def get(self, path: str) -> AvailabilityMark | None:
        """The active (unexpired) mark of *path*, from the local view."""

    @abstractmethod
    def active(self) -> dict[str, AvailabilityMark]:
        """Every active mark, from the local view."""

    @abstractmethod
    def mark_unavailable(self, mark: AvailabilityMark) -> None:
        """Record *mark* locally at once (and share it, for shared stores)."""

    @abstractmethod
    def mark_available(self, path: str) -> bool:
        """Clear the mark of *path*; True when there was an active one."""

    async def start(self) -> None:  # noqa: B027 - optional hook
        """Start background services (shared stores)."""

    async def aclose(self) -> None:  # noqa: B027 - optional hook
        """Stop background services."""

    def status(self) -> dict[str, Any]:
        """What inspect() shows about this store (never secrets)."""
        return {"kind": type(self).__name__}
