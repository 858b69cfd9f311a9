"""The availability service: the one writer of cooldown marks and the one builder of the
``route.unavailable`` / ``route.available`` events that announce them.

The executor (failed and successful invocations), the health service (probe outcomes) and
the router (the application's ``mark_access_*``) all change availability through
:class:`Availability`, so a mark is always announced the same way: ``cooldown_seconds`` is
the time left on the router's clock, rounded to the microsecond.

Events are returned, not published: inside a run the executor stamps them with the run
(``stamp=ctx.event``) and yields them; outside a run the caller publishes them.

Origins (``scheme://host:port``, see :mod:`.._contracts.origins`) are marked beside paths.
The rule for an origin:

* a failure reaching the service (connection refused or reset, a timeout:
  ``InvocationUnavailableError.transport``) cools the path and its whole origin, unless a
  path on that origin answered while the failed call was waiting (then the service is
  alive and only the path cools: one slow endpoint is not a dead host);
* a status failure (429, 503, ...) cools the path only, unless another path on the same
  origin is cooling down already: two endpoints of one service failing together cool the
  origin;
* any path on a cooled origin is unavailable (planning, ``inspect()``) until the origin's
  mark expires or a path on it answers again (an invocation, a trusted probe, or the
  application's ``mark_access_available``), which reopens the origin.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from .._contracts.origins import origin_key
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


def _until(mark: AvailabilityMark) -> float:
    return mark.until


def unstamped(cls: type[E], /, **payload: Any) -> E:
    """An event outside any run (``run_id`` None)."""
    return cls(**payload)


class Availability:
    """Changes the availability of access paths and says so in events."""

    def __init__(
        self,
        cooldowns: CooldownTracker,
        origin_of: Callable[[str], str | None] = lambda path: None,
        paths_on: Callable[[str], list[str]] = lambda origin: [],
    ) -> None:
        """*origin_of* maps an access path to its origin (None: none declared); *paths_on*
        lists the paths of an origin (both read the registry)."""
        self.cooldowns = cooldowns
        self.origin_of = origin_of
        self.paths_on = paths_on
        self._answers: dict[str, int] = {}  # origin -> how many answers paths on it gave

    def cooldown_left(self, path: str) -> float | None:
        """Seconds until *path* reopens, or None when it is available (planning's read-only
        view): the longer of its own mark and its origin's."""
        own = self.cooldowns.cooldown_left(path)
        origin = self.origin_of(path)
        if origin is None:
            return own
        theirs = self.cooldowns.cooldown_left(origin_key(origin))
        if theirs is None:
            return own
        return theirs if own is None else max(own, theirs)

    def answers_on(self, origin: str | None) -> int:
        """How many answers paths on *origin* have given so far (read when a call begins)."""
        return 0 if origin is None else self._answers.get(origin, 0)

    def origin_cooling(self, origin: str | None) -> float | None:
        """Seconds until *origin* reopens, or None when it is not cooled (or None)."""
        return None if origin is None else self.cooldowns.cooldown_left(origin_key(origin))

    # -- marks -----------------------------------------------------------------------
    def invocation_failed(
        self,
        route: RouteRef,
        error: InvocationUnavailableError,
        *,
        stamp: Stamp = unstamped,
        answers_before: int | None = None,
    ) -> RouteUnavailableEvent:
        """A route's retries are exhausted: cool it down, honouring a Retry-After hint, and
        its origin too by the rule of this module.

        A failure landing while the route already cools down (a run that started before
        the mark) does not grow the cooldown. *answers_before* is :meth:`answers_on` of the
        route's origin when the failed call began (None: no answer counts as "meanwhile").
        """
        reason = f"{type(error).__name__}: {error}"
        origin = self.origin_of(route.path)
        hint = error.retry_after
        answered = answers_before is not None and self.answers_on(origin) > answers_before
        if origin is not None and error.transport and not answered:
            # the service is away: the origin cools (and every path on it with it); the path
            # keeps no mark of its own, so whatever reopens the origin reopens the path too
            mark = self.cooldowns.record_failure(
                origin_key(origin), reason=reason, at_least=hint, escalate=False
            )
            return self._unavailable(route, mark, stamp, origin=origin)
        mark = self.cooldowns.record_failure(route.path, reason=reason, at_least=hint, escalate=False)
        if origin is None or error.transport or not self._another_cooling(origin, route.path):
            return self._unavailable(route, mark, stamp)
        origin_mark = self.cooldowns.record_failure(
            origin_key(origin),
            reason=f"two endpoints failed together, the last: {reason}",
            at_least=hint,
            escalate=False,
        )
        return self._unavailable(route, max(mark, origin_mark, key=_until), stamp, origin=origin)

    def _another_cooling(self, origin: str, path: str) -> bool:
        get = self.cooldowns.store.get
        return any(p != path and get(p) is not None for p in self.paths_on(origin))

    def probe_failed(self, route: RouteRef, *, reason: str) -> RouteUnavailableEvent:
        """A trusted probe failed: one more consecutive failure, the cooldown grows; a cooled
        origin of the path stays closed and grows with it (its other paths are no better)."""
        mark = self.cooldowns.record_failure(route.path, reason=reason)
        origin = self.origin_of(route.path)
        if origin is not None and self.origin_cooling(origin) is not None:
            origin_mark = self.cooldowns.record_failure(origin_key(origin), reason=reason)
            return self._unavailable(route, max(mark, origin_mark, key=_until), unstamped, origin=origin)
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
        growth, and its origin's; the ``route.available`` event when a running mark was
        cleared (``origin`` set when the origin's was), else None."""
        path = route.path
        cleared = self.cooldowns.record_success(path)
        origin = self.origin_of(path)
        if origin is not None:
            self._answers[origin] = self._answers.get(origin, 0) + 1
        if origin is not None and self.cooldowns.record_success(origin_key(origin)):
            return stamp(RouteAvailableEvent, **route.fields(), reason=reason, origin=origin)
        if not cleared:
            return None
        return stamp(RouteAvailableEvent, **route.fields(), reason=reason)

    def _unavailable(
        self, route: RouteRef, mark: AvailabilityMark, stamp: Stamp, origin: str | None = None
    ) -> RouteUnavailableEvent:
        left = round(max(mark.until - self.cooldowns.clock(), 0.0), 6)
        return stamp(
            RouteUnavailableEvent,
            **route.fields(),
            cooldown_seconds=left,
            failures=mark.failures,
            reason=mark.reason,
            origin=origin,
        )
