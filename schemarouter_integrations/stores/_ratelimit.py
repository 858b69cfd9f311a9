"""Where rate-limit state lives: GCRA in this process, or in Redis for a fleet.

GCRA (the generic cell rate algorithm) keeps one number per key, the *theoretical arrival
time* (TAT) of the next call. With emission interval ``T = 1 / per_second`` and burst
``B`` calls, a call at ``now`` may go at ``max(now, TAT - (B - 1) * T)``; when that is no
more than ``max_wait`` away the call reserves its slot (``TAT = max(TAT, now) + T``) and
waits until then, else it reserves nothing. Over any window of ``w`` seconds at most
``B + w * per_second`` calls start.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

Clock = Callable[[], float]

__all__ = ["MemoryRateLimiter", "RateLimiterBackend", "gcra_reserve"]


def gcra_reserve(
    tat: float | None, now: float, per_second: float, burst: float, max_wait: float
) -> tuple[float | None, float | None]:
    """``(wait, new_tat)``: the wait of a call at *now* and the new TAT, or ``(None, None)``
    when the wait would pass *max_wait* (nothing reserved)."""
    interval = 1.0 / per_second
    tat = now if tat is None or tat < now else tat
    allowed_at = tat - (burst - 1.0) * interval
    wait = max(0.0, allowed_at - now)
    if wait > max_wait:
        return None, None
    return wait, tat + interval


class RateLimiterBackend(ABC):
    """Reserves call slots under a key; shared by a fleet when ``shared``."""

    kind = "custom"
    shared = False

    @abstractmethod
    async def reserve(self, key: str, per_second: float, burst: float, max_wait: float) -> float | None:
        """Seconds to wait before the call may start (slot reserved), or None: over *max_wait*."""

    async def aclose(self) -> None:
        """Close connections."""
        return None

    def status(self) -> dict[str, Any]:
        return {"kind": self.kind, "shared": self.shared}


class MemoryRateLimiter(RateLimiterBackend):
    """GCRA state of this process, on the router's monotonic clock."""

    kind = "memory"

    def __init__(self, clock: Clock = time.monotonic) -> None:
        self.clock = clock
        self._tat: dict[str, float] = {}

    async def reserve(self, key: str, per_second: float, burst: float, max_wait: float) -> float | None:
        wait, tat = gcra_reserve(self._tat.get(key), self.clock(), per_second, burst, max_wait)
        if tat is not None:
            self._tat[key] = tat
        return wait
