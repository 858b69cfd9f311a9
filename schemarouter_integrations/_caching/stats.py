"""Counters of the answer cache, as ``inspect()`` shows them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class CacheStats:
    hits: int = 0
    misses: int = 0
    stale: int = 0
    coalesced: int = 0
    stored: int = 0
    not_stored: int = 0
    fleet_waits: int = 0

    @property
    def hit_rate(self) -> float | None:
        """Fresh hits (coalesced ones included) over the lookups that found or missed."""
        asked = self.hits + self.misses
        return None if asked == 0 else self.hits / asked
