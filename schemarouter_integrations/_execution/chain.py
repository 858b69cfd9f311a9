"""The fallback chain: where and why a run moves on from one route to the next.

A run walks the steps that passed preflight in order. Each step is one logical call:
budget first, then attempts with backoff (:mod:`.attempts`). How an attempt's error is
treated is decided by one predicate, :func:`falls_back`: an :class:`InvocationUnavailableError`
from the invoker is retried while the endpoint's ``RetryPolicy`` allows, then cools the
route down (``route.unavailable``) and hands over to the next step (``tool.fallback``). Any
other error - validation, policy, budget, a 4xx, an invoker bug - ends the run at once, and
so does cancellation. A call ends as a typed outcome, :class:`Answered` or
:class:`Unavailable`; a route that cannot run at all is a :class:`Skip`.
"""

from __future__ import annotations

import random
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from contextlib import aclosing
from functools import partial

from .._availability import Availability
from .._contracts import HedgePolicy
from .._planning import PlanRequest, ToolCall
from .._ratelimit import RateGate
from .._registry import Invoker, Registry
from ..errors import AllRoutesUnavailableError, NoRouteError, SchemaRouterError
from ..events import RoutePrunedEvent, RouterEvent, ToolFallbackEvent
from .answers import AnswerService
from .attempts import GATHER_MAX_ATTEMPTS, CallAttempts, falls_back, retries_left
from .budget import BudgetMeter
from .context import RunContext
from .hedge import Hedger
from .outcomes import Answered, FallbackReason, Unavailable, fallback_payload
from .paging import more_pages
from .preflight import Skip, Step
from .scopes import InvocationScopes

__all__ = ["GATHER_MAX_ATTEMPTS", "ChainRunner", "Sleep", "falls_back", "retries_left"]

Sleep = Callable[[float], Awaitable[None]]
Resume = tuple[int, ToolCall | None, FallbackReason]
"""Where a chain starts: the step, the route the next ``tool.fallback`` leaves, and why."""


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
    ) -> None:
        self.registry = registry
        self.scopes = scopes if scopes is not None else InvocationScopes()
        self.availability = availability
        self.sleep = sleep
        self.rng = rng
        self.hedger = hedger
        self.answers: AnswerService | None = None
        """The answer cache (``_execution/answers.py``); None: the router has none."""
        self.gate: RateGate | None = None
        """Rate limits (``_ratelimit``); None: the router keeps none."""

    async def run(
        self,
        steps: list[Step],
        meter: BudgetMeter,
        ctx: RunContext,
        hedge: HedgePolicy | None = None,
        request: PlanRequest | None = None,
        after: Resume = (0, None, "unavailable"),
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
        """
        if request is not None:
            ctx.max_records = request.max_records
        answers = self.answers
        calls = self._call if answers is None else partial(answers.call, self._call, request)
        loud = not ctx.quiet  # a quiet run's events are recorded in ctx only: nobody reads them here
        quietly = answers is None and not loud  # only the outcome of each call is read
        position, left, reason = after  # left: the route the next tool.fallback leaves
        while position < len(steps):
            step = steps[position]
            call, last = step.call, position + 1 == len(steps)
            invoker = self._ready_invoker(step)
            if isinstance(invoker, Skip) and invoker.unavailable:  # its origin cooled meanwhile
                pruned = ctx.event(RoutePrunedEvent, **call.ref.fields(), reason=invoker.reason)
                if loud:
                    yield pruned
                if left is None:
                    left, reason = call, "unavailable"
                position += 1
                continue
            if isinstance(invoker, Skip):
                if position == 0 and not last:
                    left, reason = call, "binding_unavailable"
                    position += 1
                    continue
                if position > 0:
                    yield ctx.event(RoutePrunedEvent, **call.ref.fields(), reason=invoker.reason)
                if last:
                    raise _no_binding(call, ctx)
                position += 1
                continue
            hit = None if answers is None else await answers.fresh(step, request, ctx)
            if hit is not None:  # served without a call
                if left is not None:
                    yield ctx.event(ToolFallbackEvent, **fallback_payload(left, call, reason))
                ctx.route.append(call.access_path)
                for event in hit:
                    yield event
                ctx.winner = call
                return
            fallback = self._enter(step, meter, ctx, left, reason)
            if fallback is not None and loud:
                yield fallback
            outcome: Answered | Unavailable | None = None
            ended, used = call, 1
            if hedge is not None and self.hedger is not None and call.read_only is True and not last:
                target = partial(self._hedge_target, steps[position + 1])
                race = self.hedger.race(step, invoker, hedge, calls, target, meter, ctx)
                async with aclosing(race) as raced:
                    async for lap in raced:
                        if isinstance(lap, RouterEvent):
                            yield lap
                        else:
                            ended, outcome, used = lap.call, lap.outcome, lap.steps
            elif quietly:
                outcome = await self._settled(step, invoker, meter, ctx)
            else:
                async for item in calls(step, invoker, meter, ctx):
                    if isinstance(item, Answered | Unavailable):
                        outcome = item
                    elif loud:  # an event
                        yield item
            if isinstance(outcome, Answered):
                _won(ctx, ended, outcome)
                return
            left, reason = ended, outcome.reason if isinstance(outcome, Unavailable) else "unavailable"
            position += used
        raise AllRoutesUnavailableError(
            f"every route was unavailable: {', '.join(ctx.route) or _skipped(steps)}",
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
        after: Resume = (0, None, "unavailable")
        if request is not None:
            ctx.max_records = request.max_records
        if ctx.quiet and self.answers is None and hedge is None and steps:
            step = steps[0]
            invoker = self._ready_invoker(step)
            if not isinstance(invoker, Skip):
                self._enter(step, meter, ctx, None, "unavailable")
                outcome = await self._settled(step, invoker, meter, ctx)
                if isinstance(outcome, Answered):
                    _won(ctx, step.call, outcome)
                    return
                after = (1, step.call, outcome.reason)
        async for _ in self.run(steps, meter, ctx, hedge, request, after):  # a quiet run yields
            pass  # nothing anyone reads

    def _enter(
        self, step: Step, meter: BudgetMeter, ctx: RunContext, left: ToolCall | None, reason: FallbackReason
    ) -> ToolFallbackEvent | None:
        """Charge *step*'s call and put it on the run's route; the ``tool.fallback`` from
        *left* to it, when it follows a route that ran."""
        call = step.call
        meter.charge_call(call.access_path, step.endpoint.cost_units)
        fallback = (
            None if left is None else ctx.event(ToolFallbackEvent, **fallback_payload(left, call, reason))
        )
        ctx.route.append(call.access_path)
        return fallback

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
        if not ctx.quiet:  # a quiet run's events are recorded in ctx only (see ``run``)
            yield attempts.start
        while True:
            verdict = await attempts.once(invoker)
            for event in verdict.events:
                yield event
            if verdict.delay is None:
                break
            await self.sleep(verdict.delay)
        outcome = verdict.settle()
        yield (
            await more_pages(step, invoker, meter, ctx, outcome) if isinstance(outcome, Answered) else outcome
        )

    async def _settled(
        self, step: Step, invoker: Invoker, meter: BudgetMeter, ctx: RunContext
    ) -> Answered | Unavailable:
        """:meth:`_call` for a quiet run, which reads the outcome only: the same attempts,
        awaited without an async generator."""
        attempts = CallAttempts(self, step, meter, ctx)
        while True:
            verdict = await attempts.once(invoker)
            if verdict.delay is None:
                outcome = verdict.settle()
                return (
                    await more_pages(step, invoker, meter, ctx, outcome)
                    if isinstance(outcome, Answered)
                    else outcome
                )
            await self.sleep(verdict.delay)


def _won(ctx: RunContext, call: ToolCall, outcome: Answered) -> None:
    ctx.winner, ctx.records, ctx.provenance = call, outcome.records, outcome.provenance
    ctx.total, ctx.more = outcome.total, outcome.more


def _skipped(steps: list[Step]) -> str:
    """What a run that called nothing left out: paths whose origin cooled after planning."""
    origins = sorted({s.spec.origin for s in steps if s.spec.origin is not None})
    paths = ", ".join(s.call.access_path for s in steps)
    return f"{paths} (not called: their origin {', '.join(origins)} cools down)" if origins else paths


def _no_binding(call: ToolCall, ctx: RunContext) -> SchemaRouterError:
    failed = ctx.failed_attempts()
    if failed:
        return AllRoutesUnavailableError(
            f"every route was unavailable; the last one, {call.access_path}, has no ready binding",
            attempts=failed,
        )
    return NoRouteError(
        f"{call.access_path} has no invoker bound to its current contract and no bound "
        "alternative is left in the chain"
    )
