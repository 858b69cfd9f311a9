"""One process's share of a fleet's rate limit, for when Redis cannot decide alone.

Each of ``fleet_size`` processes keeps ``per_second / fleet_size`` calls a second with a
burst of ``burst / fleet_size`` (at least one). The shares add up to the fleet's limit, so
the fleet holds ``burst + w * per_second`` calls in any window of ``w`` seconds as long as
every call also passes its process's share. That is when a share is needed:

* while Redis cannot be asked (the share alone decides). It starts empty and also counts
  the turns Redis gave this process that are still to come, so the turns Redis gave the
  fleet just before are not sent a second time;
* for a *handover* after Redis is back (Redis and the share both decide). Other processes'
  breakers may keep them on their shares for a while yet; a process back on Redis alone
  would take the whole limit beside them.

Coming back, the calls the share still counts are added to the Redis state (the *debt*):
the turns spent locally count on Redis too.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from ._ratelimit import gcra_reserve

__all__ = ["LocalShare", "share_of"]


def share_of(per_second: float, burst: float, fleet_size: int) -> tuple[float, float]:
    """``(per_second, burst)`` of one process's share: ``1 / fleet_size`` of each, burst >= 1."""
    return per_second / fleet_size, max(1.0, burst / fleet_size)


@dataclass
class LocalShare:
    """The share of one key: its local GCRA state and this process's Redis turns to come."""

    tat: float | None = None
    """The local theoretical arrival time; ``None`` while the share bounds nothing."""
    local_since: float | None = None
    """When this process last began deciding alone (Redis away), until it pays its debt."""
    handover_until: float = 0.0
    granted: deque[float] = field(default_factory=deque)
    """Start times of the turns Redis gave this process, kept while still to come."""

    def pending(self, now: float) -> int:
        """How many turns Redis gave this process start after *now*."""
        while self.granted and self.granted[0] <= now:
            self.granted.popleft()
        return len(self.granted)

    def bound(self, now: float, rate: float, burst: float) -> float:
        """The TAT to reserve from: the share starts empty, counting the turns still to come."""
        if self.tat is None:
            self.tat = now + (burst + self.pending(now)) / rate
        return self.tat

    def full_until(self, now: float, rate: float, burst: float) -> float:
        """When the share has a turn again (*now* when it has one, or bounds nothing)."""
        if self.tat is None:
            return now
        return max(now, self.tat - (burst - 1.0) / rate)

    def reserve(self, now: float, at: float, rate: float, burst: float, max_wait: float) -> float | None:
        """The wait from *now* of a turn no earlier than *at* under the share, or None past
        *max_wait* (nothing reserved)."""
        wait, tat = gcra_reserve(self.bound(now, rate, burst), at, rate, burst, max_wait - (at - now))
        if wait is None or tat is None:
            return None
        self.tat = tat
        return at - now + wait

    def debt(self, now: float, fleet_size: int) -> float:
        """Seconds of the fleet's GCRA that the calls this share still counts are worth."""
        return 0.0 if self.tat is None else max(0.0, self.tat - now) / fleet_size
