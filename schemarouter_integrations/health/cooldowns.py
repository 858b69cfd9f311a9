"""Cooldowns that grow with repeated failures and always expire."""

from __future__ import annotations

from ..contracts import CooldownPolicy
from ..stores import AvailabilityMark, AvailabilityStore
from ..stores.base import Clock


class CooldownTracker:
    """Turns failures into bounded marks in an :class:`AvailabilityStore`.

    The n-th consecutive failure of a path cools it for ``policy.seconds_for(n)``; a success
    (invocation or probe) resets the count. A Retry-After hint lengthens the cooldown up to
    ``policy.max_seconds``. Nothing is ever marked for longer than ``max_seconds``.
    """

    def __init__(self, policy: CooldownPolicy, store: AvailabilityStore, clock: Clock) -> None:
        self.policy = policy
        self.store = store
        self.clock = clock
        self._failures: dict[str, int] = {}

    def cooldown_left(self, path: str) -> float | None:
        mark = self.store.get(path)
        if mark is None:
            return None
        return max(mark.until - self.clock(), 0.0)

    def record_failure(
        self, path: str, *, reason: str | None = None, at_least: float | None = None
    ) -> AvailabilityMark:
        previous = self.store.get(path)
        count = max(self._failures.get(path, 0), previous.failures if previous else 0) + 1
        self._failures[path] = count
        seconds = self.policy.seconds_for(count)
        if at_least is not None:
            seconds = min(max(seconds, at_least), self.policy.max_seconds)
        return self.mark(path, seconds=seconds, reason=reason, failures=count)

    def mark(
        self, path: str, *, seconds: float | None, reason: str | None, failures: int | None = None
    ) -> AvailabilityMark:
        length = self.policy.base_seconds if seconds is None else seconds
        length = min(max(length, 0.0), self.policy.max_seconds)
        mark = AvailabilityMark(
            path=path,
            until=self.clock() + length,
            reason=reason,
            failures=failures if failures is not None else self._failures.get(path, 1),
        )
        self.store.mark_unavailable(mark)
        return mark

    def record_success(self, path: str) -> bool:
        """Reset growth; True when an active mark was cleared."""
        self._failures.pop(path, None)
        return self.store.mark_available(path)

    def failures(self, path: str) -> int:
        return self._failures.get(path, 0)
