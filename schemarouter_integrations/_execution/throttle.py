"""The token bucket that keeps hedges that prove extra to about ``max_extra_fraction`` of calls.

In the manner of gRPC's retry throttling; how :mod:`.hedge` spends, refunds, presumes and
charges back its tokens is described there.
"""

from __future__ import annotations

__all__ = ["HedgeThrottle"]


class HedgeThrottle:
    """The token bucket that keeps extra calls to about ``max_extra_fraction`` of calls."""

    CAPACITY = 10.0

    def __init__(self, fraction: float) -> None:
        self.fraction = fraction
        self.tokens = self.CAPACITY

    def call_started(self) -> None:
        """A hedge-eligible call started: it earns ``fraction`` of a token."""
        self.tokens = min(self.CAPACITY, self.tokens + self.fraction)

    def take(self) -> bool:
        """Spend a token for a hedge; False when that would leave half the capacity or less."""
        if self.tokens - 1.0 < self.CAPACITY / 2 - 1e-9:  # tolerate float sums of fractions
            return False
        self.tokens -= 1.0
        return True

    def refund(self) -> None:
        """The hedge was needed after all (its hedged-from call failed): give the token back."""
        self.tokens = min(self.CAPACITY, self.tokens + 1.0)

    def charge_back(self) -> None:
        """A hedge presumed needed was extra after all (its hedged-from call answered)."""
        self.tokens = max(-self.CAPACITY, self.tokens - 1.0)
