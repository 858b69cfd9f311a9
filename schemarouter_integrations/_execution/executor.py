"""Running a compiled plan: ``plan.compiled``, preflight, the chain, ``run.end`` or ``run.error``.

Preflight checks the whole chain first (policy, fingerprints, bindings, arguments: nothing
is invoked when it fails); :mod:`.chain` then runs the calls and decides every fallback.
"""

from __future__ import annotations

import operator
import random
from collections.abc import AsyncGenerator, Callable
from contextlib import aclosing
from functools import partial
from typing import Any

from .._availability import Availability
from .._bounded import BoundedCache
from .._planning import Plan, PlanRequest, ToolCall
from .._planning.requests import as_request
from .._ratelimit import RateGate
from .._registry import Registry
from ..errors import AllRoutesUnavailableError, SchemaRouterError
from ..events import RoutePrunedEvent, RouterEvent, RunEndEvent, RunErrorEvent, RunStartEvent, ToolResult
from .answers import AnswerService
from .budget import BudgetMeter, RunBudget
from .chain import ChainRunner, Sleep
from .context import RunContext, bounded_records, compiled_event, served_fields
from .gather import Gatherer
from .hedge import Hedger, LateSink
from .preflight import Pruned, Step, preflight
from .scopes import InvocationScopes

PlanSource = Plan | Callable[[], Plan]
_Preflighted = tuple[tuple[ToolCall, ...], int, tuple[Step, ...], tuple[Pruned, ...]]
"""The calls (held, so their ids stay theirs), the registry version, the steps and the pruned."""

__all__ = ["Executor", "PlanSource", "Sleep"]


async def _ignore(event: RouterEvent) -> None:
    return None


def plan_source(
    request_or_plan: PlanRequest | Plan | str, planner: Callable[[PlanRequest], Plan]
) -> tuple[PlanRequest, PlanSource]:
    """The request of a run and what gives its plan: the compiled plan, or *planner* for it."""
    if isinstance(request_or_plan, Plan):
        return request_or_plan.request, request_or_plan
    request = as_request(request_or_plan)
    return request, partial(planner, request)


RUN_EVENTS_ATTRIBUTE = "_schemarouter_run_events"
"""Set on an error ``invoke`` raises: the events of its run."""


class Executor:
    """Runs plans as compiled. It never invents a route."""

    def __init__(
        self,
        registry: Registry,
        availability: Availability,
        *,
        sleep: Sleep,
        rng: random.Random | None = None,
        late_events: LateSink | None = None,
        answers: AnswerService | None = None,
        gate: RateGate | None = None,
    ) -> None:
        """*late_events* hears what a hedged call that lost the race reports after its run ended;
        *answers* is the router's answer cache, *gate* its rate limits (either may be None)."""
        self.registry = registry
        self.availability = availability
        self.sleep = sleep
        self.hedger = Hedger(late_events or _ignore, availability.cooldown_left)
        self.scopes = InvocationScopes()
        self.answers = answers
        self._chain = ChainRunner(
            registry,
            availability,
            sleep=sleep,
            rng=rng,
            hedger=self.hedger,
            scopes=self.scopes,
            answers=answers,
            gate=gate,
        )
        self.gatherer = Gatherer(registry, availability, self._chain)
        self._preflights: BoundedCache[tuple[int, ...], _Preflighted] = BoundedCache(64)

    def _preflight(self, plan: Plan) -> tuple[list[Step], list[Pruned]]:
        """:func:`.preflight.preflight`, remembered for a chain of calls that runs again.

        Preflight depends on the plan's calls and on the registry's contracts and bindings
        only, and ``registry.version`` moves on every change of those. Compiled calls are
        immutable and the planner hands out the same call objects while the registry is
        unchanged, so a compiled plan run again, and a request planned again, find the
        chain by the identity of its calls. Only a successful preflight is remembered (the
        most recent chains).
        """
        if plan.primary is None:  # raises NoRouteError; the calls alone do not say so
            return preflight(plan, self.registry, self.availability)
        calls = tuple(plan.calls)
        key = tuple(map(id, calls))
        version = self.registry.version
        known = self._preflights.get(key)
        if known is not None and known[1] == version and all(map(operator.is_, known[0], calls)):
            return list(known[2]), list(known[3])
        steps, pruned = preflight(plan, self.registry, self.availability)
        self._preflights.put(key, (calls, version, tuple(steps), tuple(pruned)))
        return steps, pruned

    async def quietly(
        self, request: PlanRequest, source: PlanSource, budget: RunBudget | None
    ) -> tuple[ToolResult | RunErrorEvent, list[RouterEvent]]:
        """A whole run that nobody listens to, from ``run.start``: its result (the one its
        ``run.end`` would carry, which nobody reads, so none is built unless an older answer
        serves), or its ``run.error`` and all its events (for ``RUN_EVENTS_ATTRIBUTE``).
        No other event is built during the run (``RunContext(quiet=True)``), and the run is
        awaited, not streamed: the same steps as :meth:`run`, with its events recorded only."""
        ctx = RunContext(quiet=True)
        ctx.event(RunStartEvent, query=request.query)
        plan: Plan | None = None
        try:
            plan = source if isinstance(source, Plan) else source()
            compiled_event(plan, ctx)
            steps = self._steps(plan, ctx)
            await self._chain.settle(steps, BudgetMeter(budget), ctx, plan.request.hedge, plan.request)
            return self._result(plan, ctx), []
        except Exception as exc:
            last = (await self._failed(plan, exc, ctx))[-1]
        if isinstance(last, RunErrorEvent):
            return last, ctx.built_events()
        if not isinstance(last, RunEndEvent) or last.result is None:  # pragma: no cover
            raise SchemaRouterError("the run ended without a result")
        return last.result, []

    async def run(
        self, source: PlanSource, budget: RunBudget | None, ctx: RunContext
    ) -> AsyncGenerator[RouterEvent, None]:
        """Yield the run's events live; the last one is ``run.end`` or ``run.error``.

        *source* is a compiled plan or a zero-argument planner called at the start of the
        run. Any error, planning included, ends the stream with ``run.error`` carrying the
        exception. Cancellation propagates as is and marks nothing unavailable.
        """
        plan: Plan | None = None
        try:
            plan = source if isinstance(source, Plan) else source()
            yield compiled_event(plan, ctx)
            pruned = len(ctx.events)
            steps = self._steps(plan, ctx)
            for event in ctx.events[pruned:]:  # the routes preflight pruned
                yield event
            chain = self._chain.run(steps, BudgetMeter(budget), ctx, plan.request.hedge, plan.request)
            async with aclosing(chain) as events:  # a stopped run stops its calls at once
                async for event in events:
                    yield event
            yield self._ended(plan, ctx)
        except Exception as exc:
            for event in await self._failed(plan, exc, ctx):
                yield event

    def _steps(self, plan: Plan, ctx: RunContext) -> list[Step]:
        """The plan's steps that passed preflight, with a ``route.pruned`` for each pruned one."""
        steps, pruned = self._preflight(plan)
        for item in pruned:
            ctx.event(RoutePrunedEvent, **item.call.ref.fields(), reason=item.reason)
        return steps

    def _ended(self, plan: Plan, ctx: RunContext) -> RunEndEvent:
        """The ``run.end`` of a chain that answered, with its result."""
        result = self._result(plan, ctx)
        return ctx.event(
            RunEndEvent, tool=result.tool, endpoint=result.endpoint, fallbacks=ctx.fallbacks(), result=result
        )

    def _result(self, plan: Plan, ctx: RunContext) -> ToolResult:
        """The :class:`ToolResult` of a chain that answered (the one its ``run.end`` carries)."""
        winner = ctx.winner
        if winner is None:  # the chain either sets a winner or raises
            raise SchemaRouterError("the run ended without a result")
        return _result_of(winner, plan, ctx, provenance=ctx.provenance)

    async def _failed(self, plan: Plan | None, exc: Exception, ctx: RunContext) -> list[RouterEvent]:
        """The last events of a run that raised *exc*: ``run.error``, or, when every route was
        unavailable and an older answer serves, ``cache.stale`` and ``run.end``."""
        if isinstance(exc, AllRoutesUnavailableError) and plan is not None:
            exc.refused_arguments = refused_arguments(plan)
        stale = None
        if self.answers is not None and plan is not None:
            stale = await self.answers.stale(plan.request, exc, ctx)
        if stale is None:
            return [ctx.error_event(exc)]
        call, healthy, event = stale  # every route was unavailable: an older answer serves
        result = _result_of(call, healthy if plan is None or plan.primary is None else plan, ctx)
        end = ctx.event(
            RunEndEvent, tool=call.tool, endpoint=call.endpoint, fallbacks=ctx.fallbacks(), result=result
        )
        return [event, end]


ARGUMENTS_REFUSED = ("does not accept argument", "arguments do not fit")
"""How planning's reasons for a route that cannot take the request's arguments begin."""


def refused_arguments(plan: Plan) -> dict[str, str]:
    """The routes *plan* left out for a filter they do not take, with that reason."""
    return {
        f"{r.tool}.{r.endpoint}": r.reason for r in plan.rejected if r.reason.startswith(ARGUMENTS_REFUSED)
    }


def _result_of(call: ToolCall, plan: Plan, ctx: RunContext, **extra: Any) -> ToolResult:
    """The run's :class:`ToolResult`: answered by *call*, under *plan*, from *ctx*'s bookkeeping;
    its records cut at the request's ``max_records``."""
    kept, bounds = bounded_records(ctx, plan.request.max_records)
    values: dict[str, Any] = {
        "tool": call.tool,
        "endpoint": call.endpoint,
        "provider": call.provider,
        "access_mode": call.access_mode,
        "records": kept,
        "attempts": list(ctx.attempts),
        "route": list(ctx.route),
        "plan": plan,
    }
    if ctx.served is not None:
        values.update(served_fields(ctx))
    if bounds:
        values.update(bounds)
    if extra:
        values.update(extra)
    return ctx.result(values)
