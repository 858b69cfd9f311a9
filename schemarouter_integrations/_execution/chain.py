"""The fallback chain: where and why a run moves on from one route to the next.

A run walks the steps that passed preflight in order. Each step is one logical call:
budget first, then attempts with backoff (:mod:`.attempts`). How an attempt's error is
treated is decided by one predicate, :func:`falls_back`: an :class:`InvocationUnavailableError`
from the invoker is retried while the endpoint's ``RetryPolicy`` allows, then cools the
route down (``route.unavailable``) and hands over to the next step (``tool.fallback``). Any
other error - validation, policy, budget, a 4xx, an invoker bug - ends the run at once, and
so does cancellation. A call ends as :class:`Answered` or :class:`Unavailable`; a :class:`Skip` cannot run.
"""

from __future__ import annotations

import random
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Iterator
from contextlib import aclosing
from functools import partial

from .._availability import Availability
from .._contracts import HedgePolicy
from .._planning import PlanRequest
from .._ratelimit import RateGate
from .._registry import Invoker, Registry
from ..errors import AllRoutesUnavailableError
from ..events import RoutePrunedEvent, RouterEvent, ToolFallbackEvent
from .answers import AnswerService
from .attempts import GATHER_MAX_ATTEMPTS, CallAttempts, Verdict, falls_back, retries_left
from .budget import BudgetMeter
from .context import RunContext
from .hedge import Hedger
from .outcomes import Answered, Unavailable, fallback_payload
from .paging import more_pages
from .preflight import Skip, Step
from .race import Raced
from .scopes import InvocationScopes
from .walk import Walk, no_binding, skipped, won

__all__ = ["GATHER_MAX_ATTEMPTS", "ChainRunner", "Sleep", "Walk", "falls_back", "retries_left"]

Sleep = Callable[[float], Awaitable[None]]


_START = Walk()
"""Where a run starts (read only: no route ran yet)."""


class ChainRunner:
    """Runs the steps of one plan until one answers."""

    def __init__(
        self,
        registry: Registry,
        availability: Availability,
        *,
        sleep: Sleep,
        rng: random.Random | None,
        hedger: Hedger | None = None,
        scopes: InvocationScopes | None = None,
        answers: AnswerService | None = None,
        gate: RateGate | None = None,
    ) -> None:
        self.registry = registry
        self.scopes = scopes if scopes is not None else InvocationScopes()
        self.availability = availability
        self.sleep = sleep
        self.rng = rng
        self.hedger = hedger
        self.answers = answers
        """The answer cache (``_execution/answers.py``); None: the router has none."""
        self.gate = gate
        """Rate limits (``_ratelimit``); None: the router keeps none."""

    async def run(
        self,
        steps: list[Step],
        meter: BudgetMeter,
        ctx: RunContext,
        hedge: HedgePolicy | None = None,
        request: PlanRequest | None = None,
        after: Walk | None = None,
    ) -> AsyncGenerator[RouterEvent, None]:
        """Yield the chain's events; on return ``ctx.winner`` and ``ctx.records`` are set.

        Bindings and contracts are checked again at call time, since they may change while
        the run goes on. An unbound primary hands over to the next route with
        ``tool.fallback`` (reason ``binding_unavailable``). A later route that lost its
        binding or contract during the run is skipped with ``route.pruned``; it never
        started, so the next ``tool.fallback`` still leaves the route that ran and failed.
        With *hedge*, a read-only call followed by a read-only call is raced (:mod:`.hedge`).
        With an answer cache, a fresh answer of a step is served before it is charged, and
        its call is coalesced and stored under *request*'s policy (:mod:`.answers`).
        *after* starts the chain at a later step (see :meth:`settle`).

        Events are handed on through the run's one emitter (``ctx.emit`` / ``ctx.heard``),
        which hands nothing on in a quiet run: the same code serves both kinds of run.
        """
        walk = self._begin(ctx, request, after)
        quietly = hedge is None and self._settles_quietly(ctx)
        while walk.position < len(steps):
            step = steps[walk.position]
            invoker = self._ready_invoker(step)
            if isinstance(invoker, Skip):
                for event in self._skip(steps, walk, invoker, ctx):
                    yield event
                continue
            hit = None if self.answers is None else await self._fresh(step, walk, request, ctx)
            if hit is not None:  # served without a call
                for event in hit:
                    yield event
                return
            for event in self._enter(step, meter, ctx, walk):
                yield event
            ended, outcome, used = step.call, None, 1  # the call that ended the step, and how
            if quietly:  # nobody reads the call's events: await its outcome
                outcome = await self._settled(step, invoker, meter, ctx)
            else:
                attempted = self._attempted(steps, walk.position, invoker, meter, ctx, hedge, request)
                async with aclosing(attempted) as items:  # a stopped run stops its call at once
                    async for item in items:
                        if isinstance(item, Raced):
                            ended, outcome, used = item.call, item.outcome, item.steps
                        else:
                            yield item
            if walk.ended(ctx, ended, outcome, used):
                return
        raise AllRoutesUnavailableError(
            f"every route was unavailable: {', '.join(ctx.route) or skipped(steps)}",
            attempts=ctx.failed_attempts(),
        )

    async def settle(
        self,
        steps: list[Step],
        meter: BudgetMeter,
        ctx: RunContext,
        hedge: HedgePolicy | None = None,
        request: PlanRequest | None = None,
    ) -> None:
        """:meth:`run` for a quiet run, awaited: its outcome is in ``ctx`` on return.

        Without an answer cache or a hedge, a primary that is ready to run is called here
        (no stream: nobody reads its events); :meth:`run` takes over otherwise, and from the
        next step on when that primary was unavailable.
        """
        if request is not None:
            ctx.max_records = request.max_records
        walk = None
        if hedge is None and steps and ctx.quiet and self.answers is None:  # as :meth:`_settles_quietly`
            step = steps[0]
            invoker = self._ready_invoker(step)
            if not isinstance(invoker, Skip):
                self._enter(step, meter, ctx, _START)
                attempts = CallAttempts(self, step, meter, ctx)
                ended = await attempts.once(invoker)
                if type(ended) is Answered and not (ended.more or ended.total is not None):
                    won(ctx, step.call, ended)  # answered whole at the first attempt
                    return
                outcome = await self._settled(step, invoker, meter, ctx, attempts, ended)
                if isinstance(outcome, Answered):
                    won(ctx, step.call, outcome)
                    return
                walk = Walk(1, step.call, outcome.reason)
        async for _ in self.run(steps, meter, ctx, hedge, request, walk):  # a quiet run's stream:
            pass  # nothing anyone reads

    # -- the steps of a run ----------------------------------------------------------
    def _begin(self, ctx: RunContext, request: PlanRequest | None, after: Walk | None) -> Walk:
        if request is not None:
            ctx.max_records = request.max_records
        return after if after is not None else Walk()

    def _settles_quietly(self, ctx: RunContext) -> bool:
        """True when a call's outcome is all anyone reads: a quiet run without an answer cache."""
        return ctx.quiet and self.answers is None

    def _skip(self, steps: list[Step], walk: Walk, skip: Skip, ctx: RunContext) -> Iterator[RouterEvent]:
        """Pass over a step that cannot run: its ``route.pruned`` when a later route lost its
        binding or its origin cooled meanwhile. An unbound last step then ends the run."""
        call, position = steps[walk.position].call, walk.position
        last = position + 1 == len(steps)
        walk.position += 1
        if skip.unavailable:  # its origin cooled meanwhile
            if walk.left is None:
                walk.left, walk.reason = call, "unavailable"
            yield from ctx.emit(RoutePrunedEvent, **call.ref.fields(), reason=skip.reason)
            return
        if position == 0 and not last:
            walk.left, walk.reason = call, "binding_unavailable"
            return
        if position > 0:
            yield from ctx.emit(RoutePrunedEvent, **call.ref.fields(), reason=skip.reason)
        if last:
            raise no_binding(call, ctx)

    async def _fresh(
        self, step: Step, walk: Walk, request: PlanRequest | None, ctx: RunContext
    ) -> list[RouterEvent] | None:
        """The events of *step* served from the answer cache (the run is answered), or None."""
        answers = self.answers
        hit = None if answers is None else await answers.fresh(step, request, ctx)
        if hit is None:
            return None
        call, left = step.call, walk.left
        moved = (
            () if left is None else ctx.emit(ToolFallbackEvent, **fallback_payload(left, call, walk.reason))
        )
        ctx.route.append(call.access_path)
        ctx.winner = call
        return [*moved, *ctx.heard(*hit)]

    def _enter(self, step: Step, meter: BudgetMeter, ctx: RunContext, walk: Walk) -> tuple[RouterEvent, ...]:
        """Charge *step*'s call and put it on the run's route; the ``tool.fallback`` to it,
        when it follows a route that ran."""
        call, left = step.call, walk.left
        meter.charge_call(call.access_path, step.endpoint.cost_units)
        moved = (
            () if left is None else ctx.emit(ToolFallbackEvent, **fallback_payload(left, call, walk.reason))
        )
        ctx.route.append(call.access_path)
        return moved

    async def _attempted(
        self,
        steps: list[Step],
        position: int,
        invoker: Invoker,
        meter: BudgetMeter,
        ctx: RunContext,
        hedge: HedgePolicy | None,
        request: PlanRequest | None,
    ) -> AsyncGenerator[RouterEvent | Raced, None]:
        """The call of step *position* (raced against the next one under *hedge*): its
        events, then how it ended (a :class:`Raced`)."""
        step = steps[position]
        answers = self.answers
        calls = self._call if answers is None else partial(answers.call, self._call, request)
        last = position + 1 == len(steps)
        if hedge is not None and self.hedger is not None and step.call.read_only is True and not last:
            target = partial(self._hedge_target, steps[position + 1])
            race = self.hedger.race(step, invoker, hedge, calls, target, meter, ctx)
            async with aclosing(race) as raced:
                async for lap in raced:
                    yield lap
            return
        outcome: Answered | Unavailable | None = None
        async for item in calls(step, invoker, meter, ctx):
            if isinstance(item, Answered | Unavailable):
                outcome = item
            else:
                yield item
        if outcome is not None:
            yield Raced(step.call, outcome, 1)

    def _hedge_target(self, step: Step) -> tuple[Step, Invoker] | None:
        """The next call as a hedge: read-only and ready to run, else none."""
        if step.call.read_only is not True:
            return None
        invoker = self._ready_invoker(step)
        return None if isinstance(invoker, Skip) else (step, invoker)

    def _ready_invoker(self, step: Step) -> Invoker | Skip:
        """The invoker bound to the contract *step* was checked against, or why there is none."""
        call = step.call
        spec = self.registry.tool(call.tool)
        if spec is None:
            return Skip(f"tool {call.tool!r} was removed during the run")
        if spec is not step.spec:
            return Skip(f"the contract of {call.tool!r} was registered again during the run")
        binding = self.registry.binding(call.tool)
        if binding is None or binding.fingerprint != call.tool_fingerprint:
            return Skip(f"binding is {self.registry.binding_state(call.tool)}: it changed during the run")
        cooling = self.availability.origin_cooling(spec.origin)
        if cooling is not None:
            return Skip(f"its origin {spec.origin} cools down for another {cooling:.1f}s", unavailable=True)
        return binding.invoker

    async def _call(
        self, step: Step, invoker: Invoker, meter: BudgetMeter, ctx: RunContext
    ) -> AsyncIterator[RouterEvent | Answered | Unavailable]:
        """One call, charged already: its events as they happen, ending with its outcome
        (the attempts and what each one's end means: :class:`.attempts.CallAttempts`)."""
        attempts = CallAttempts(self, step, meter, ctx)
        for start in ctx.heard(attempts.start):
            yield start
        while True:
            ended = await attempts.once(invoker)
            for event in ended.events:
                yield event
            if type(ended) is Answered:
                yield await more_pages(step, invoker, meter, ctx, ended)
                return
            assert isinstance(ended, Verdict)
            if ended.delay is None:
                break
            await self.sleep(ended.delay)
        yield ended.settle()

    async def _settled(
        self,
        step: Step,
        invoker: Invoker,
        meter: BudgetMeter,
        ctx: RunContext,
        attempts: CallAttempts | None = None,
        ended: Answered | Verdict | None = None,
    ) -> Answered | Unavailable:
        """:meth:`_call` for a quiet run, which reads the outcome only: the same attempts,
        awaited without an async generator (from *attempts* after its attempt *ended*,
        when the caller made the first one)."""
        if attempts is None or ended is None:
            attempts = CallAttempts(self, step, meter, ctx)
            ended = await attempts.once(invoker)
        while True:
            if type(ended) is Answered:
                return await more_pages(step, invoker, meter, ctx, ended)
            assert isinstance(ended, Verdict)
            if ended.delay is None:
                return ended.settle()
            await self.sleep(ended.delay)
            ended = await attempts.once(invoker)
