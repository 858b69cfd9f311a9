"""The availability service: the one writer of cooldown marks and the one builder of the
``route.unavailable`` / ``route.available`` events that announce them.

The executor (failed and successful invocations), the health service (probe outcomes) and
the router (the application's ``mark_access_*``) all change availability through
:class:`Availability`, so a mark is always announced the same way: ``cooldown_seconds`` is
the time left on the router's clock, rounded to the microsecond.

Events are returned, not published: inside a run the executor stamps them with the run
(``stamp=ctx.event``) and yields them; outside a run the caller publishes them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from .._registry import RouteRef
from ..errors import InvocationUnavailableError
from ..events import RouteAvailableEvent, RouterEvent, RouteUnavailableEvent
from ..stores import AvailabilityMark
from .cooldowns import CooldownTracker

__all__ = ["Availability", "Stamp", "unstamped"]

E = TypeVar("E", bound=RouterEvent)


class Stamp(Protocol):
    """Builds an event of a class from its payload (a run's ``ctx.event`` stamps run id and seq)."""

    def __call__(self, cls: type[E], /, **payload: Any) -> E: ...


def unstamped(cls: type[E], /, **payload: Any) -> E:
    """An event outside any run (``run_id`` None)."""
    return cls(**payload)


class Availability:
    """Changes the availability of access paths and says so in events."""

    def __init__(self, cooldowns: CooldownTracker) -> None:
        self.cooldowns = cooldowns
        self.cooldown_left: Callable[[str], float | None] = cooldowns.cooldown_left
        """Seconds until a path reopens, or None when it is available (planning's read-only view)."""

    # -- marks -----------------------------------------------------------------------
    def invocation_failed(
        self, route: RouteRef, error: InvocationUnavailableError, *, stamp: Stamp = unstamped
    ) -> RouteUnavailableEvent:
        """A route's retries are exhausted: cool it down, honouring a Retry-After hint.

        A failure landing while the route already cools down (a run that started before
        the mark) does not grow the cooldown.
        """
        mark = self.cooldowns.record_failure(
            route.path,
            reason=f"{type(error).__name__}: {error}",
            at_least=error.retry_after,
            escalate=False,
        )
        return self._unavailable(route, mark, stamp)

    def probe_failed(self, route: RouteRef, *, reason: str) -> RouteUnavailableEvent:
        """A trusted probe failed: one more consecutive failure, the cooldown grows."""
        mark = self.cooldowns.record_failure(route.path, reason=reason)
        return self._unavailable(route, mark, stamp=unstamped)

    def marked_unavailable(
        self, route: RouteRef, *, seconds: float | None, reason: str
    ) -> RouteUnavailableEvent:
        """The application's explicit mark, kept as given (see ``CooldownTracker.mark``)."""
        mark = self.cooldowns.mark(route.path, seconds=seconds, reason=reason)
        return self._unavailable(route, mark, stamp=unstamped)

    def reopened(
        self, route: RouteRef, *, reason: str, stamp: Stamp = unstamped
    ) -> RouteAvailableEvent | None:
        """The route answered (invocation, probe or the application's word): reset its
        growth; the ``route.available`` event when a running mark was cleared, else None."""
        if not self.cooldowns.record_success(route.path):
            return None
        return stamp(RouteAvailableEvent, **route.fields(), reason=reason)

    def _unavailable(self, route: RouteRef, mark: AvailabilityMark, stamp: Stamp) -> RouteUnavailableEvent:
        left = round(max(mark.until - self.cooldowns.clock(), 0.0), 6)
        return stamp(
            RouteUnavailableEvent,
            **route.fields(),
            cooldown_seconds=left,
            failures=mark.failures,
            reason=mark.reason,
        )
