"""A store that fails fast: the breaker of a shared store (Redis, SQLite).

A failed operation is raised as :class:`StoreUnavailable`, which the router counts as a miss
and which makes it skip the rest of that question's operations on the store. After
``failures_to_open`` consecutive failures (about as many failed questions) the breaker
*opens*: every operation fails at once, without touching the store, for a pause that
starts at ``first_pause_seconds`` and doubles each time it opens again in a row (up to
``max_pause_seconds``). When the pause is over the breaker is *half-open*: the next
question that tries uses the store again; a success closes it, a failure opens it again.

``status()`` (shown under the store in ``router.inspect()``): ``state`` (``closed``,
``open``, ``half-open``), ``consecutive_failures``, ``retry_in_seconds`` (while open),
``opened`` (how many times) and ``skipped`` (operations refused while open).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from ..errors import ConfigurationError

__all__ = ["Breaker", "StoreUnavailable"]


class StoreUnavailable(Exception):
    """The store failed, or rests after repeated failures: the operation counts as a miss."""


class Breaker:
    """Consecutive failures open it for a short, growing pause (see the module)."""

    def __init__(
        self,
        *,
        failures_to_open: int = 3,
        first_pause_seconds: float = 1.0,
        max_pause_seconds: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if (
            isinstance(failures_to_open, bool)
            or not isinstance(failures_to_open, int)
            or failures_to_open < 1
        ):
            raise ConfigurationError("failures_to_open must be a positive whole number")
        pauses = (first_pause_seconds, max_pause_seconds)
        if not all(isinstance(p, int | float) and math.isfinite(p) and p > 0 for p in pauses):
            raise ConfigurationError("breaker pauses must be positive numbers of seconds")
        if first_pause_seconds > max_pause_seconds:
            raise ConfigurationError("first_pause_seconds must not exceed max_pause_seconds")
        self.failures_to_open = failures_to_open
        self.first_pause_seconds = float(first_pause_seconds)
        self.max_pause_seconds = float(max_pause_seconds)
        self.clock = clock
        self.consecutive_failures = 0
        self.opened = 0
        self.skipped = 0
        self._pause = 0.0
        self._open_until: float | None = None

    @property
    def state(self) -> str:
        if self._open_until is None:
            return "closed"
        return "open" if self.clock() < self._open_until else "half-open"

    def check(self) -> None:
        """Raise :class:`StoreUnavailable` while open (the store is not touched)."""
        until = self._open_until
        if until is not None and self.clock() < until:
            self.skipped += 1
            raise StoreUnavailable(f"the store rests after {self.consecutive_failures} failures in a row")

    def succeeded(self) -> None:
        self.consecutive_failures = 0
        self._pause = 0.0
        self._open_until = None

    def failed(self) -> None:
        """A failure: opens the breaker at the threshold, and again (a doubled pause) when the
        first try after a pause fails; failures of operations begun before it opened count only."""
        self.consecutive_failures += 1
        until = self._open_until
        if until is not None and self.clock() < until:
            return  # already open
        if until is not None or self.consecutive_failures >= self.failures_to_open:
            self._pause = min(
                self.max_pause_seconds, self._pause * 2 if self._pause else self.first_pause_seconds
            )
            self._open_until = self.clock() + self._pause
            self.opened += 1

    def status(self) -> dict[str, Any]:
        until = self._open_until
        left = None if until is None else max(0.0, until - self.clock())
        return {
            "state": self.state,
            "consecutive_failures": self.consecutive_failures,
            "retry_in_seconds": None if left is None else round(left, 3),
            "opened": self.opened,
            "skipped": self.skipped,
        }
