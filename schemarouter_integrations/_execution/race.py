"""One hedged call, step by step: its two lanes (the call and its hedge), the hedge timer,
and what each lane's end means for the run (:class:`Race`, driven by ``Hedger.race``)."""

from __future__ import annotations

import contextlib
import math
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

import anyio

from .._contracts import HedgePolicy
from .._detached import Detached
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

__all__ = ["CallFn", "CallItems", "HedgeStart", "HedgeTarget", "Lane", "LateSink", "Race", "Raced"]

CallItems = AsyncIterator[RouterEvent | Answered | Unavailable]
CallFn = Callable[[Step, Invoker, BudgetMeter, RunContext], CallItems]
LateSink = Callable[[RouterEvent], Awaitable[None]]
HedgeTarget = Callable[[], tuple[Step, Invoker] | None]
HedgeStart = tuple[Step, Invoker, ToolHedgeEvent] | Literal["no token"] | None
"""A hedge started (its step, invoker and event), refused for want of a token, or not started."""
HedgeFn = Callable[
    [Step, HedgePolicy, HedgeTarget, HedgeThrottle | None, BudgetMeter, RunContext], HedgeStart
]
WATCH_SECONDS = 0.05
"""How often a call whose hedge was refused for want of a token checks its route's cooldown."""


@dataclass(frozen=True, slots=True)
class Raced:
    """How a hedged call ended: the call that answered, or the last one that failed, and how
    many steps of the chain it used (1 when no hedge started, 2 when one did)."""

    call: ToolCall
    outcome: Answered | Unavailable
    steps: int


Item = tuple["Lane", RouterEvent | None]  # an event of a lane, or None when the lane ended


class Lane:
    """One call of a hedged pair, driven in a detached task.

    Its events go to the race's stream; once the race is over and the lane still runs
    (``detach``), they go to the late sink instead.
    """

    def __init__(self, step: Step, items: CallItems, send: MemoryObjectSendStream[Item]) -> None:
        self.step = step
        self.outcome: Answered | Unavailable | None = None
        self.error: Exception | None = None
        self.ended = False
        self._items = items
        self._send: MemoryObjectSendStream[Item] | None = send
        self._late: LateSink | None = None
        self._on_late_end: Callable[[Lane], None] | None = None
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

    def detach(self, late: LateSink, on_end: Callable[[Lane], None]) -> None:
        """Let the lane finish on its own; its later events and end go to *late* / *on_end*."""
        self._send, self._late, self._on_late_end = None, late, on_end

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()


class Racer(Protocol):
    """What a race uses of the router's :class:`~.hedge.Hedger`."""

    cooling: Callable[[str], float | None]

    def throttle(self, policy: HedgePolicy) -> HedgeThrottle: ...

    def start(self, step: Step, items: CallItems, send: MemoryObjectSendStream[Item]) -> Lane: ...

    @property
    def hedge(self) -> HedgeFn:
        """:meth:`.hedge.Hedger.hedge`: start the hedge of the first step if everything allows it."""

    def outrun(
        self, lane: Lane, throttle: HedgeThrottle | None, after_seconds: float, meter: BudgetMeter
    ) -> None: ...


class Race:
    """The state of one hedged call: lane *a* (the call), lane *b* (its hedge, once started),
    the hedge timer, the throttle token and which ends were taken (in arrival order)."""

    def __init__(
        self,
        hedger: Racer,
        first: Step,
        policy: HedgePolicy,
        call: CallFn,
        target: HedgeTarget,
        meter: BudgetMeter,
        ctx: RunContext,
    ) -> None:
        self.hedger, self.first, self.policy, self.call = hedger, first, policy, call
        self.target, self.meter, self.ctx = target, meter, ctx
        self.throttle = hedger.throttle(policy)
        self.throttle.call_started()
        self.send, self.receive = anyio.create_memory_object_stream[Item](math.inf)
        self.a: Lane | None = None
        self.b: Lane | None = None
        self.deadline: float | None = anyio.current_time() + policy.after_seconds
        self.watching = False  # a hedge was refused for want of a token
        self.spent = False  # the hedge spent a token (a hedge on evidence does not)
        self.a_done = self.b_done = False  # the lane's end was taken from the stream
        self.blocked: BudgetExceededError | None = None  # the budget stopped a's retries; b may answer

    async def next_message(self) -> Item | None:
        """The next event or end of a lane; None when the hedge timer fired first."""
        message: Item | None = None
        wait = math.inf if self.deadline is None else max(self.deadline - anyio.current_time(), 0.0)
        with anyio.move_on_after(wait):
            message = await self.receive.receive()
        return message if message is not None else _queued(self.receive)  # an end as the timer fired

    def hedge_now(self) -> ToolHedgeEvent | None:
        """``after_seconds`` passed and the call has not ended: start the hedge if everything
        allows it (its ``tool.hedge``), else watch for a token or a cooldown of the route."""
        self.deadline = None
        # refused once for want of a token: a cooldown of the route elsewhere is evidence
        # that the hedge is needed (no token), else try for a token again
        cooling = self.watching and self.hedger.cooling(self.first.call.access_path) is not None
        throttle = None if cooling else self.throttle
        hedge = self.hedger.hedge(self.first, self.policy, self.target, throttle, self.meter, self.ctx)
        if hedge == "no token":
            self.watching = True
            self.deadline = anyio.current_time() + min(self.policy.after_seconds, WATCH_SECONDS)
            return None
        if hedge is None:
            return None
        step, invoker, started = hedge
        self.b = self.hedger.start(step, self.call(step, invoker, self.meter, self.ctx), self.send)
        self.spent = not cooling
        return started

    def lane_ended(self, lane: Lane) -> Iterator[RouterEvent | Raced]:
        """What the end of *lane* means: events, then the :class:`Raced` that ends the race
        or nothing (the other lane may still answer); raises the error that ends the run."""
        settle(lane)
        return self._first_ended() if lane is self.a else self._hedge_ended()

    def _first_ended(self) -> Iterator[RouterEvent | Raced]:
        a, b = self.a, self.b
        assert a is not None
        self.a_done, self.deadline = True, None  # a call that ended is never hedged
        if isinstance(a.outcome, Answered):
            yield Raced(self.first.call, a.outcome, 1 if b is None else 2)
            return
        if b is None:
            if a.error is not None:
                raise a.error
            assert a.outcome is not None
            yield Raced(self.first.call, a.outcome, 1)
            return
        if isinstance(a.error, BudgetExceededError):
            self.blocked = a.error  # the hedge is paid for and running: let it answer
        elif a.error is not None:
            raise a.error
        else:
            if self.spent:
                self.throttle.refund()  # the hedge was needed
            moved = fallback_payload(self.first.call, b.step.call, "unavailable")
            yield from self.ctx.emit(ToolFallbackEvent, **moved)
        yield from self._both_ended()

    def _hedge_ended(self) -> Iterator[RouterEvent | Raced]:
        a, b = self.a, self.b
        assert a is not None and b is not None
        self.b_done = True
        if isinstance(b.outcome, Answered):
            if not self.a_done:
                throttle = self.throttle if self.spent else None
                self.hedger.outrun(a, throttle, self.policy.after_seconds, self.meter)
            yield from _drained(self.receive)  # happened during the run
            yield Raced(b.step.call, b.outcome, 2)
            return
        yield from self._both_ended()

    def _both_ended(self) -> Iterator[Raced]:
        """Once both lanes failed: the error that ends the run, else the hedge's unavailability."""
        b = self.b
        if not (self.a_done and self.b_done):
            return  # the hedge failed first: the hedged-from call may still answer
        assert b is not None
        if self.blocked is not None:
            raise self.blocked
        if b.error is not None:
            raise b.error
        assert isinstance(b.outcome, Unavailable)
        yield Raced(b.step.call, b.outcome, 2)

    def close(self, detached: set[Lane]) -> None:
        """Cancel the lanes still running that were not left to finish (*detached*)."""
        for running in (self.a, self.b):
            if running is not None and not running.ended and running not in detached:
                running.cancel()
        self.receive.close()


def settle(lane: Lane) -> None:
    """A lane that ended with neither records nor an error (a stray cancellation from inside
    the invoker) ended the run like an invoker bug, never hanging it."""
    if lane.outcome is None and lane.error is None:
        path = lane.step.call.access_path
        lane.error = InvokerCrashedError(f"{path} ended without an answer or an error")


def _queued(receive: MemoryObjectReceiveStream[Item]) -> Item | None:
    try:
        return receive.receive_nowait()
    except anyio.WouldBlock:
        return None


def _drained(receive: MemoryObjectReceiveStream[Item]) -> list[RouterEvent]:
    """Events already queued when the race ended (they happened during the run)."""
    queued: list[RouterEvent] = []
    while True:
        try:
            _lane, event = receive.receive_nowait()
        except anyio.WouldBlock:
            return queued
        if event is not None:
            queued.append(event)
