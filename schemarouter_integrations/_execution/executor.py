"""Running a compiled plan: ``plan.compiled``, preflight, the chain, ``run.end`` or ``run.error``.

Preflight checks the whole chain first (policy, fingerprints, bindings, arguments: nothing
is invoked when it fails); :mod:`.chain` then runs the calls and decides every fallback.
"""

from __future__ import annotations

import random
from collections.abc import AsyncGenerator, Callable

from .._availability import Availability
from .._bounded import BoundedCache
from .._planning import Plan
from .._registry import Registry
from ..errors import SchemaRouterError
from ..events import RoutePrunedEvent, RouterEvent, RunEndEvent
from .budget import BudgetMeter, RunBudget
from .chain import ChainRunner, Sleep
from .context import RunContext, compiled_event, trusted_result
from .gather import Gatherer
from .preflight import Pruned, Step, preflight

PlanSource = Plan | Callable[[], Plan]

__all__ = ["Executor", "PlanSource", "Sleep"]


class Executor:
    """Runs plans as compiled. It never invents a route."""

    def __init__(
        self,
        registry: Registry,
        availability: Availability,
        *,
        sleep: Sleep,
        rng: random.Random | None = None,
    ) -> None:
        self.registry = registry
        self.availability = availability
        self.sleep = sleep
        self._chain = ChainRunner(registry, availability, sleep=sleep, rng=rng)
        self.gatherer = Gatherer(registry, availability, self._chain)
        self._preflights: BoundedCache[int, tuple[Plan, int, tuple[Step, ...], tuple[Pruned, ...]]]
        self._preflights = BoundedCache(32)

    def _preflight(self, plan: Plan, *, reused: bool) -> tuple[list[Step], list[Pruned]]:
        """:func:`.preflight.preflight`, remembered for a compiled plan the caller runs again.

        Preflight depends on the plan and on the registry's contracts and bindings only, and
        ``registry.version`` moves on every change of those; only a successful preflight is
        remembered (the few most recent plans, held by identity).
        """
        if not reused:
            return preflight(plan, self.registry, self.availability)
        version = self.registry.version
        known = self._preflights.get(id(plan))
        if known is not None and known[0] is plan and known[1] == version:
            return list(known[2]), list(known[3])
        steps, pruned = preflight(plan, self.registry, self.availability)
        self._preflights.put(id(plan), (plan, version, tuple(steps), tuple(pruned)))
        return steps, pruned

    async def run(
        self, source: PlanSource, budget: RunBudget | None, ctx: RunContext
    ) -> AsyncGenerator[RouterEvent, None]:
        """Yield the run's events live; the last one is ``run.end`` or ``run.error``.

        *source* is a compiled plan or a zero-argument planner called at the start of the
        run. Any error, planning included, ends the stream with ``run.error`` carrying the
        exception. Cancellation propagates as is and marks nothing unavailable.
        """
        try:
            plan = source if isinstance(source, Plan) else source()
            yield compiled_event(plan, ctx)
            steps, pruned = self._preflight(plan, reused=plan is source)
            for item in pruned:
                yield ctx.event(RoutePrunedEvent, **item.call.ref.fields(), reason=item.reason)
            async for event in self._chain.run(steps, BudgetMeter(budget), ctx):
                yield event
            winner = ctx.winner
            if winner is None:  # the chain either sets a winner or raises
                raise SchemaRouterError("the run ended without a result")
            result = trusted_result(
                tool=winner.tool,
                endpoint=winner.endpoint,
                provider=winner.provider,
                access_mode=winner.access_mode,
                records=ctx.records,
                attempts=list(ctx.attempts),
                route=list(ctx.route),
                events=list(ctx.events),
                plan=plan,
            )
            yield ctx.event(
                RunEndEvent,
                tool=result.tool,
                endpoint=result.endpoint,
                fallbacks=result.fallbacks,
                result=result,
            )
        except Exception as exc:
            yield ctx.error_event(exc)
