"""Cooldowns that grow with repeated failures and always expire."""

from __future__ import annotations

import math
import numbers

from .._contracts import CooldownPolicy
from ..errors import ConfigurationError
from ..stores import AvailabilityMark, AvailabilityStore
from ..stores._base import Clock


class CooldownTracker:
    """Turns failures into bounded marks in an :class:`AvailabilityStore`.

    The n-th consecutive failure of a path cools it for ``policy.seconds_for(n)`` (doubling
    by default); a success (invocation or probe) resets the count. A Retry-After hint
    lengthens the cooldown up to ``policy.max_seconds``, and a failure never shortens a
    cooldown already running.

    ``max_seconds`` bounds what the router decides on its own (failure streaks, hints,
    failed probes). An explicit :meth:`mark` by the application is kept as given: it may
    be longer than ``max_seconds`` (a known one-hour maintenance window), and must be a
    finite number of seconds, so every mark still expires.

    The count is the larger of this router's own streak and the ``failures`` carried by the
    current mark, so routers sharing a store grow one cooldown together.
    """

    def __init__(self, policy: CooldownPolicy, store: AvailabilityStore, clock: Clock) -> None:
        self.policy = policy
        self.store = store
        self.clock = clock
        self._failures: dict[str, int] = {}

    def cooldown_left(self, path: str) -> float | None:
        """Seconds until *path* reopens, or None when it is available (local view only)."""
        mark = self.store.get(path)
        if mark is None:
            return None
        return max(mark.until - self.clock(), 0.0)

    def record_failure(
        self,
        path: str,
        *,
        reason: str | None = None,
        at_least: float | None = None,
        escalate: bool = True,
    ) -> AvailabilityMark:
        """Count one more consecutive failure of *path* and cool it accordingly.

        With ``escalate=False`` a failure that lands while *path* is already cooling down (a
        run that started before the mark, sharing the same outage) does not grow the
        cooldown: only a failure after the path reopened, or a failed probe, counts again.
        """
        previous = self.store.get(path)
        # a shared store may hold a peer's mark locally for a grace period: what is shared counts
        shared = self.store.shared_until(path) if previous is not None else None
        left = (shared if shared is not None else previous.until) - self.clock() if previous else 0.0
        if previous is not None and not escalate:
            hint = at_least if at_least is not None and math.isfinite(at_least) else 0.0
            if hint <= left:
                return previous
        count = max(self._failures.get(path, 0), previous.failures if previous else 0) + 1
        self._failures[path] = count
        seconds = self.policy.seconds_for(count)
        if at_least is not None and math.isfinite(at_least):
            seconds = min(max(seconds, at_least), self.policy.max_seconds)
        if previous is not None:  # never shorten a running mark, an application's long one included
            seconds = max(seconds, left)
        return self._store(path, seconds, reason, count)

    def mark(self, path: str, *, seconds: float | None, reason: str | None) -> AvailabilityMark:
        """The application's explicit mark: cool *path* for *seconds* (default ``base_seconds``).

        The length is kept as given, even beyond ``policy.max_seconds`` (which bounds only
        automatic growth); it replaces any running mark of *path*. Raises
        :class:`ConfigurationError` (a ``ValueError``) when *seconds* is not a finite,
        non-negative number, so no mark can last forever.
        """
        if seconds is None:
            length = self.policy.base_seconds
        elif isinstance(seconds, bool) or not isinstance(seconds, numbers.Real):
            raise ConfigurationError(f"a cooldown length is a number of seconds, got {seconds!r}")
        else:
            length = float(seconds)
            if math.isnan(length):
                raise ConfigurationError("a cooldown length must be a number of seconds, not NaN")
            if not 0.0 <= length < math.inf:
                raise ConfigurationError(
                    f"a cooldown length must be finite and non-negative (every mark expires), got {length!r}"
                )
        return self._store(path, length, reason, None)

    def _store(self, path: str, seconds: float, reason: str | None, failures: int | None) -> AvailabilityMark:
        mark = AvailabilityMark(
            path=path,
            until=self.clock() + max(seconds, 0.0),
            reason=reason,
            failures=failures if failures is not None else max(self._failures.get(path, 0), 1),
        )
        self.store.mark_unavailable(mark)
        return mark

    def record_success(self, path: str) -> bool:
        """Reset growth; True when an active mark was cleared."""
        self._failures.pop(path, None)
        return self.store.mark_available(path)

    def failures(self, path: str) -> int:
        """This router's current streak of consecutive failures of *path*."""
        return self._failures.get(path, 0)
