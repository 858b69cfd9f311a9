"""Retry, cooldown and hedging policies."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import Field, model_validator

from .base import NOT_GIVEN, Contract, with_first


class RetryPolicy(Contract):
    """Attempts on one access path before it counts as unavailable.

    Backoff before attempt ``n+1`` is ``min(max_backoff_seconds, backoff_seconds * 2**(n-1))``,
    drawn uniformly from ``[0, that]`` when ``jitter`` is on (full jitter). A Retry-After
    hint from the server raises the wait to the hint; a hint longer than
    ``max_backoff_seconds`` ends the retries at once and cools the path down for at least
    that long, since retrying sooner would only be refused again.
    """

    max_attempts: int = Field(default=1, ge=1, le=20)
    backoff_seconds: float = Field(default=0.0, ge=0.0, allow_inf_nan=False)
    max_backoff_seconds: float = Field(default=30.0, ge=0.0, allow_inf_nan=False)
    jitter: bool = True


class CooldownPolicy(Contract):
    """How long a failed access path stays out of planning.

    The n-th consecutive failure cools the path for ``base_seconds * multiplier**(n-1)``,
    never more than ``max_seconds``; a success resets the growth. Every mark expires.
    """

    base_seconds: float = Field(default=30.0, gt=0.0, allow_inf_nan=False)
    max_seconds: float = Field(default=300.0, gt=0.0, allow_inf_nan=False)
    multiplier: float = Field(default=2.0, ge=1.0, allow_inf_nan=False)

    @model_validator(mode="after")
    def _max_not_below_base(self) -> CooldownPolicy:
        if self.max_seconds < self.base_seconds:
            raise ValueError("max_seconds must be >= base_seconds")
        return self

    def seconds_for(self, consecutive_failures: int) -> float:
        """Cooldown length after *consecutive_failures* failures (1 = first)."""
        exponent = max(consecutive_failures, 1) - 1
        try:
            return float(min(self.max_seconds, self.base_seconds * self.multiplier**exponent))
        except OverflowError:  # a long outage: the growth passed any float, and so max_seconds
            return float(self.max_seconds)


class HedgePolicy(Contract):
    """Opt-in hedged fallback: ``HedgePolicy(after_seconds, max_extra_fraction=0.1)``.

    When the current call of a read-only chain has not answered after ``after_seconds``, the
    next call of the compiled chain starts as well and the first success wins. Hedges stop
    when the hedges that proved unnecessary (the hedged-from call answered after all) would
    pass ``max_extra_fraction`` of the router's recent hedge-eligible calls; see
    ``_execution/hedge.py`` for the token bucket and what happens to the slower call.
    """

    after_seconds: float = Field(gt=0.0, allow_inf_nan=False)
    max_extra_fraction: float = Field(default=0.1, ge=0.0, le=1.0, allow_inf_nan=False)

    if TYPE_CHECKING:

        def __init__(self, after_seconds: float, max_extra_fraction: float = 0.1) -> None: ...

    else:

        def __init__(self, after_seconds: float = NOT_GIVEN, **options: Any) -> None:
            super().__init__(**with_first("after_seconds", after_seconds, options))
