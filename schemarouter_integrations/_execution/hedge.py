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

import contextlib
import math
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import anyio

from .._contracts import HedgePolicy
from .._detached import Detached, loop_key, spawn
from .._planning import ToolCall
from .._registry import Invoker
from ..errors import BudgetExceededError, InvokerCrashedError
from ..events import RouterEvent, ToolFallbackEvent, ToolHedgeEvent
from .budget import BudgetMeter
from .context import RunContext
from .outcomes import Answered, Unavailable, fallback_payload
from .preflight import Step
from .throttle import HedgeThrottle

if TYPE_CHECKING:
    from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

CallItems = AsyncIterator[RouterEvent | Answered | Unavailable]
CallFn = Callable[[Step, Invoker, BudgetMeter, RunContext], CallItems]
LateSink = Callable[[RouterEvent], Awaitable[None]]
HedgeTarget = Callable[[], tuple[Step, Invoker] | None]
WATCH_SECONDS = 0.05
"""How often a call whose hedge was refused for want of a token checks its route's cooldown."""
PRESUME_AFTER = 4.0
"""An outrun call still running after this many ``after_seconds`` presumes its hedge needed."""
MAX_OUTRUN = 8
"""Outrun calls of one route left to finish at most; a further one is cancelled instead."""


@dataclass(frozen=True, slots=True)
class Raced:
    """How a hedged call ended: the call that answered, or the last one that failed, and how
    many steps of the chain it used (1 when no hedge started, 2 when one did)."""

    call: ToolCall
    outcome: Answered | Unavailable
    steps: int


_Item = tuple["_Lane", RouterEvent | None]  # an event of a lane, or None when the lane ended


class _Lane:
    """One call of a hedged pair, driven in a detached task.

    Its events go to the race's stream; once the race is over and the lane still runs
    (``detach``), they go to the late sink instead.
    """

    def __init__(self, step: Step, items: CallItems, send: MemoryObjectSendStream[_Item]) -> None:
        self.step = step
        self.outcome: Answered | Unavailable | None = None
        self.error: Exception | None = None
        self.ended = False
        self._items = items
        self._send: MemoryObjectSendStream[_Item] | None = send
        self._late: LateSink | None = None
        self._on_late_end: Callable[[_Lane], None] | None = None
        self.task: Detached | None = None
        self.loop: object = None  # the event loop a detached lane runs on
        self.started = anyio.current_time()
        self.spent_from: HedgeThrottle | None = None  # the bucket its hedge took a token from
        self.presume_at = math.inf  # when its hedge is presumed needed (it still has not ended)
        self.presumed = False

    async def drive(self) -> None:
        try:
            async for item in self._items:
                if isinstance(item, RouterEvent):
                    await self._emit(item)
                else:
                    self.outcome = item
        except Exception as exc:  # the race decides what an error means
            self.error = exc
        finally:
            self.ended = True
            if self._send is not None:
                with contextlib.suppress(anyio.BrokenResourceError, anyio.ClosedResourceError):
                    self._send.send_nowait((self, None))
            elif self._on_late_end is not None:
                self._on_late_end(self)

    async def _emit(self, event: RouterEvent) -> None:
        if self._send is not None:
            with contextlib.suppress(anyio.BrokenResourceError, anyio.ClosedResourceError):
                self._send.send_nowait((self, event))
        elif self._late is not None:
            await self._late(event)  # the event bus logs and skips a failing sink

    def detach(self, late: LateSink, on_end: Callable[[_Lane], None]) -> None:
        """Let the lane finish on its own; its later events and end go to *late* / *on_end*."""
        self._send, self._late, self._on_late_end = None, late, on_end

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()


class Hedger:
    """Runs hedged calls for one router: its throttles and its detached slower calls."""

    def __init__(self, late: LateSink, cooling: Callable[[str], float | None]) -> None:
        """*late* hears an outrun call's events after its run; *cooling* is the availability
        view (seconds of cooldown left for an access path, None when it is available)."""
        self.late = late
        self.cooling = cooling
        self._throttles: dict[float, HedgeThrottle] = {}
        self.detached: set[_Lane] = set()

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
        throttle = self.throttle(policy)
        throttle.call_started()
        send, receive = anyio.create_memory_object_stream[_Item](math.inf)
        a = self._start(first, call(first, invoker, meter, ctx), send)
        b: _Lane | None = None
        deadline: float | None = anyio.current_time() + policy.after_seconds
        watching = False  # a hedge was refused for want of a token
        spent = False  # the hedge spent a token (a hedge on evidence does not)
        a_done = b_done = False  # the lane's end was taken from the stream (in arrival order)
        blocked: BudgetExceededError | None = None  # the budget stopped a's retries; b may answer
        try:
            while True:
                message: _Item | None = None
                wait = math.inf if deadline is None else max(deadline - anyio.current_time(), 0.0)
                with anyio.move_on_after(wait):
                    message = await receive.receive()
                if message is None:
                    message = _queued(receive)  # an end that arrived as the timer fired comes first
                if message is None:  # after_seconds passed and the call has not ended
                    deadline = None
                    # refused once for want of a token: a cooldown of the route elsewhere is
                    # evidence that the hedge is needed (no token), else try for a token again
                    cooling = watching and self.cooling(first.call.access_path) is not None
                    hedge = self._hedge(first, policy, target, None if cooling else throttle, meter, ctx)
                    if hedge == "no token":
                        watching = True
                        deadline = anyio.current_time() + min(policy.after_seconds, WATCH_SECONDS)
                    elif hedge is not None:
                        step, hedge_invoker, started = hedge
                        b = self._start(step, call(step, hedge_invoker, meter, ctx), send)
                        spent = not cooling
                        yield started
                    continue
                lane, event = message
                if event is not None:
                    yield event
                    continue
                _settle(lane)
                if lane is a:
                    a_done, deadline = True, None  # a call that ended is never hedged
                    if isinstance(a.outcome, Answered):
                        yield Raced(first.call, a.outcome, 1 if b is None else 2)
                        return
                    if b is None:
                        if a.error is not None:
                            raise a.error
                        assert a.outcome is not None
                        yield Raced(first.call, a.outcome, 1)
                        return
                    if isinstance(a.error, BudgetExceededError):
                        blocked = a.error  # the hedge is paid for and running: let it answer
                    elif a.error is not None:
                        raise a.error
                    else:
                        if spent:
                            throttle.refund()  # the hedge was needed
                        moved = fallback_payload(first.call, b.step.call, "unavailable")
                        yield ctx.event(ToolFallbackEvent, **moved)
                else:
                    assert b is not None
                    b_done = True
                    if isinstance(b.outcome, Answered):
                        if not a_done:
                            self._outrun(a, throttle if spent else None, policy.after_seconds, meter)
                        for queued in _drained(receive):  # happened during the run
                            yield queued
                        yield Raced(b.step.call, b.outcome, 2)
                        return
                if not (a_done and b_done):
                    continue  # the hedge failed first: the hedged-from call may still answer
                assert b is not None
                if blocked is not None:
                    raise blocked
                if b.error is not None:
                    raise b.error
                assert isinstance(b.outcome, Unavailable)
                yield Raced(b.step.call, b.outcome, 2)
                return
        finally:
            for running in (a, b):
                if running is not None and not running.ended and running not in self.detached:
                    running.cancel()
            receive.close()

    def _start(self, step: Step, items: CallItems, send: MemoryObjectSendStream[_Item]) -> _Lane:
        lane = _Lane(step, items, send)
        lane.task = spawn(lane.drive)
        return lane

    def _hedge(
        self,
        first: Step,
        policy: HedgePolicy,
        target: HedgeTarget,
        throttle: HedgeThrottle | None,
        meter: BudgetMeter,
        ctx: RunContext,
    ) -> tuple[Step, Invoker, ToolHedgeEvent] | Literal["no token"] | None:
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

    def _outrun(
        self, lane: _Lane, throttle: HedgeThrottle | None, after_seconds: float, meter: BudgetMeter
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

    def _detach(self, lane: _Lane, throttle: HedgeThrottle | None, after_seconds: float) -> None:
        """Let the slower call finish within its own timeout. The token its hedge spent
        (*throttle*, None when it spent none) comes back when the call fails as unavailable."""

        def ended(finished: _Lane) -> None:
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


def _settle(lane: _Lane) -> None:
    """A lane that ended with neither records nor an error (a stray cancellation from inside
    the invoker) ended the run like an invoker bug, never hanging it."""
    if lane.outcome is None and lane.error is None:
        path = lane.step.call.access_path
        lane.error = InvokerCrashedError(f"{path} ended without an answer or an error")


def _queued(receive: MemoryObjectReceiveStream[_Item]) -> _Item | None:
    try:
        return receive.receive_nowait()
    except anyio.WouldBlock:
        return None


def _drained(receive: MemoryObjectReceiveStream[_Item]) -> list[RouterEvent]:
    """Events already queued when the race ended (they happened during the run)."""
    queued: list[RouterEvent] = []
    while True:
        try:
            _lane, event = receive.receive_nowait()
        except anyio.WouldBlock:
            return queued
        if event is not None:
            queued.append(event)
