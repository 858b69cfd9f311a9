"""Hedged fallback: a slow read-only call and the next call of the chain, raced.

With ``PlanRequest(hedge=HedgePolicy(after_seconds))`` a call of a read-only chain runs as
before, but when it has not answered after ``after_seconds`` the next call of the compiled
chain starts as well (``tool.hedge``), if it is read-only and bound, the run budget can pay
for it (it is charged like a fallback) and the router's throttle has a token. Then:

* the first success answers the run. When the hedge wins, the slower call, the one whose
  health is in question, is *not* cancelled: it finishes within its own timeout in a
  detached task, so that its failure still cools the route down; its late events
  (``tool.error``, ``route.unavailable``) go to the router's sinks, not to the finished run.
  When the hedged-from call wins, the hedge is cancelled (cancellation marks nothing).
* failures resolve as without hedging: the hedged-from call's ``InvocationUnavailableError``
  is a ``tool.fallback`` to the hedge, which is already running; any other error of the
  hedged-from call ends the run, except the budget refusing its retry (the hedge is paid for
  and may answer); an error of the hedge that would end the run ends it only once the
  hedged-from call failed as unavailable. When both are unavailable the chain goes on with
  the call after the hedge. Ends are taken in arrival order: the first to answer wins.
* a slower call left to finish is free of its finished run's budget; at most ``MAX_OUTRUN``
  of a route finish that way, a further one is cancelled (its token comes back).

Each call is hedged at most once and at most two calls of a run are in flight. Events of a
hedged call reach the run's stream live. The throttle is a token bucket per router and
``max_extra_fraction``, in the manner of gRPC's retry throttling: it holds at most
``CAPACITY`` tokens and starts full; every hedge-eligible call adds ``max_extra_fraction``;
a hedge spends one token and needs more than half the capacity left. A hedge that proved
needed (the hedged-from call failed as unavailable) gets its token back, so only hedges
that were extra calls count: over any run of N eligible calls at most
``max_extra_fraction * N + CAPACITY / 2`` hedges are extra, plus the outrun calls presumed
failing at that moment: an outrun call still running after ``PRESUME_AFTER * after_seconds``
presumes its hedge needed and refunds the token early (taken back if the call answers after
all), so a long upstream timeout does not keep the bucket empty through an outage. A call
whose hedge was refused keeps trying for a token while it waits, and once its route cools
down (another run's failure, or a peer's through a shared store) the hedge starts at once
without a token, since it is needed.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable
from typing import TYPE_CHECKING

import anyio

from .._contracts import HedgePolicy
from .._detached import loop_key, spawn
from .._registry import Invoker
from ..errors import BudgetExceededError
from ..events import RouterEvent, ToolHedgeEvent
from .budget import BudgetMeter
from .context import RunContext
from .outcomes import Answered, Unavailable
from .preflight import Step
from .race import WATCH_SECONDS, CallFn, CallItems, HedgeStart, HedgeTarget, Item, Lane, LateSink, Race, Raced
from .throttle import HedgeThrottle

if TYPE_CHECKING:
    from anyio.streams.memory import MemoryObjectSendStream

__all__ = [
    "MAX_OUTRUN",
    "PRESUME_AFTER",
    "WATCH_SECONDS",
    "CallFn",
    "HedgeTarget",
    "Hedger",
    "LateSink",
    "Raced",
]

PRESUME_AFTER = 4.0
"""An outrun call still running after this many ``after_seconds`` presumes its hedge needed."""
MAX_OUTRUN = 8
"""Outrun calls of one route left to finish at most; a further one is cancelled instead."""


class Hedger:
    """Runs hedged calls for one router: its throttles and its detached slower calls."""

    def __init__(self, late: LateSink, cooling: Callable[[str], float | None]) -> None:
        """*late* hears an outrun call's events after its run; *cooling* is the availability
        view (seconds of cooldown left for an access path, None when it is available)."""
        self.late = late
        self.cooling = cooling
        self._throttles: dict[float, HedgeThrottle] = {}
        self.detached: set[Lane] = set()

    def throttle(self, policy: HedgePolicy) -> HedgeThrottle:
        fraction = policy.max_extra_fraction
        throttle = self._throttles.get(fraction)
        if throttle is None:
            throttle = self._throttles[fraction] = HedgeThrottle(fraction)
        return throttle

    def cancel_detached(self) -> None:
        """Cancel the slower calls still finishing on the running loop (its runs end: the
        router closes, or ``invoke_sync``'s own loop is about to end)."""
        here = loop_key()
        for lane in list(self.detached):
            if lane.loop == here:
                lane.cancel()

    async def race(
        self,
        first: Step,
        invoker: Invoker,
        policy: HedgePolicy,
        call: CallFn,
        target: HedgeTarget,
        meter: BudgetMeter,
        ctx: RunContext,
    ) -> AsyncGenerator[RouterEvent | Raced, None]:
        """Yield the events of *first* (and of its hedge) live; the last item is a :class:`Raced`.

        Raises the error that ends the run, like an unhedged call would.
        """
        race = Race(self, first, policy, call, target, meter, ctx)
        race.a = self.start(first, call(first, invoker, meter, ctx), race.send)
        try:
            while True:
                message = await race.next_message()
                if message is None:  # after_seconds passed and the call has not ended
                    started = race.hedge_now()
                    if started is not None:
                        yield started
                    continue
                lane, event = message
                if event is not None:
                    yield event
                    continue
                for item in race.lane_ended(lane):
                    yield item
                    if isinstance(item, Raced):
                        return
        finally:
            race.close(self.detached)

    def start(self, step: Step, items: CallItems, send: MemoryObjectSendStream[Item]) -> Lane:
        lane = Lane(step, items, send)
        lane.task = spawn(lane.drive)
        return lane

    def hedge(
        self,
        first: Step,
        policy: HedgePolicy,
        target: HedgeTarget,
        throttle: HedgeThrottle | None,
        meter: BudgetMeter,
        ctx: RunContext,
    ) -> HedgeStart:
        """Start the hedge if everything allows it: the next call, a token (unless *throttle*
        is None: the hedged-from route is cooling down, so the hedge is needed), the budget."""
        found = target()
        if found is None:
            return None
        if throttle is not None:
            self._presume(throttle)
        if throttle is not None and not throttle.take():
            return "no token"
        step, invoker = found
        try:
            meter.charge_call(step.call.access_path, step.endpoint.cost_units)
        except BudgetExceededError:
            if throttle is not None:
                throttle.refund()  # nothing was sent: the token was not spent
            return None
        ctx.route.append(step.call.access_path)
        event = ctx.event(
            ToolHedgeEvent,
            from_tool=first.call.tool,
            from_endpoint=first.call.endpoint,
            to_tool=step.call.tool,
            to_endpoint=step.call.endpoint,
            after_seconds=policy.after_seconds,
        )
        return step, invoker, event

    def outrun(
        self, lane: Lane, throttle: HedgeThrottle | None, after_seconds: float, meter: BudgetMeter
    ) -> None:
        """The hedge answered before *lane*: let it finish within its own timeout (detached),
        unless it already ended (its end is still queued) or its route has ``MAX_OUTRUN``
        outrun calls in flight already (then it is cancelled: enough calls will tell)."""
        if lane.ended:
            if throttle is not None and isinstance(lane.outcome, Unavailable):
                throttle.refund()
            return
        path = lane.step.call.access_path
        if sum(1 for other in self.detached if other.step.call.access_path == path) >= MAX_OUTRUN:
            lane.cancel()
            if throttle is not None:
                throttle.refund()  # so many calls of the route unanswered: presumed needed
            return
        meter.release()  # the run is over: the slower call's retries are its own
        self._detach(lane, throttle, after_seconds)

    def _presume(self, throttle: HedgeThrottle) -> None:
        """Refund the tokens of hedges whose outrun call has run for ``PRESUME_AFTER`` times
        ``after_seconds`` without ending: they are presumed needed (charged back if the call
        answers after all), so an outage does not wait a whole timeout to refill the bucket."""
        now = anyio.current_time()
        for lane in self.detached:
            due = not lane.presumed and not lane.ended and now >= lane.presume_at
            if due and lane.spent_from is throttle:
                lane.presumed = True
                throttle.refund()

    def _detach(self, lane: Lane, throttle: HedgeThrottle | None, after_seconds: float) -> None:
        """Let the slower call finish within its own timeout. The token its hedge spent
        (*throttle*, None when it spent none) comes back when the call fails as unavailable."""

        def ended(finished: Lane) -> None:
            self.detached.discard(finished)
            if throttle is None:
                return
            if isinstance(finished.outcome, Unavailable) and not finished.presumed:
                throttle.refund()
            elif isinstance(finished.outcome, Answered) and finished.presumed:
                throttle.charge_back()

        lane.spent_from = throttle
        lane.presume_at = lane.started + PRESUME_AFTER * after_seconds
        lane.loop = loop_key()
        self.detached.add(lane)
        lane.detach(self.late, ended)
