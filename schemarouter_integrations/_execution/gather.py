"""Gathering: every route of a compiled plan runs at once, and each answers or fails alone.

A gather compiles the request like ``invoke`` does, with ``fallback_scope="cross_provider"``
when the request leaves fallback disabled (``same_provider`` is kept) and with
``max_routes - 1`` fallbacks (default: every compatible route, at most
:data:`MAX_GATHER_ROUTES`). The whole chain is preflighted once; then each step runs as a
one-step chain through :class:`~.chain.ChainRunner`, so budget charges, attempts, backoff,
Retry-After, cooldowns and events are those of ``invoke``; there is no hand-over, since every
route runs anyway. Since nothing waits for one route, a gather never pays a timeout twice: a
transport failure (timeout, connection refused or reset) is not retried, its origin cools
down and the route is reported as a failure; a refusal with a status (429, 503) is retried at
most once, after its Retry-After when that is within the policy's ``max_backoff_seconds`` and
the budget (:func:`~.chain.retries_left`).

Budget: the gather is one run with one :class:`~.budget.BudgetMeter`. Each route is charged
one tool call and its first attempt when it starts (routes start in plan order, so the first
ones get the budget), each retry one more attempt; a route whose charge would pass the
budget fails with ``BudgetExceededError`` and the others go on.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import anyio

from .._availability import Availability
from .._planning import Plan, PlanRequest
from .._registry import Registry
from ..errors import AllRoutesUnavailableError, SchemaRouterError
from ..events import GatherResult, RoutePrunedEvent, RouterEvent, RunEndEvent, RunStartEvent, ToolResult
from .budget import BudgetMeter, RunBudget
from .chain import ChainRunner
from .context import RunContext, bounded_records, compiled_event, served_fields
from .preflight import Step, preflight

__all__ = ["MAX_GATHER_ROUTES", "Gatherer", "Publish", "gather_request"]

MAX_GATHER_ROUTES = 32
"""The most routes one gather runs (``max_routes=None``)."""
SINK_GRACE_SECONDS = 5.0

Publish = Callable[[RouterEvent], Awaitable[None]]
"""Delivers one event of the gather (to the router's sinks and the caller's hook)."""


def gather_request(request: PlanRequest, max_routes: int | None) -> PlanRequest:
    """*request* as a gather compiles it: cross-provider unless it says same-provider, and
    ``max_routes - 1`` fallbacks (the planner's own limit of 8 does not apply here)."""
    if max_routes is not None and (isinstance(max_routes, bool) or not isinstance(max_routes, int)):
        raise SchemaRouterError(f"max_routes must be a positive integer, got {max_routes!r}")
    if max_routes is not None and max_routes < 1:
        raise SchemaRouterError(f"max_routes must be a positive integer, got {max_routes!r}")
    routes = min(max_routes or MAX_GATHER_ROUTES, MAX_GATHER_ROUTES)
    scope = "cross_provider" if request.fallback_scope == "disabled" else request.fallback_scope
    values = {name: getattr(request, name) for name in type(request).model_fields}
    # validated already; only the fallback bound may pass PlanRequest's limit of 8
    return PlanRequest.model_construct(**{**values, "fallback_scope": scope, "max_fallbacks": routes - 1})


class Gatherer:
    """Runs every step of a plan concurrently through the one chain runner."""

    def __init__(self, registry: Registry, availability: Availability, chain: ChainRunner) -> None:
        self.registry = registry
        self.availability = availability
        self.chain = chain

    async def run(
        self,
        asked: Plan | PlanRequest,
        planner: Callable[[PlanRequest], Plan],
        budget: RunBudget | None,
        publish: Publish,
        *,
        max_routes: int | None = None,
    ) -> GatherResult:
        """Publish the gather's events and return what it collected.

        A request is compiled by *planner* as :func:`gather_request` says; a compiled plan
        runs as is (its first *max_routes* steps).

        Raises :class:`AllRoutesUnavailableError` when no route answered (each route's
        attempts attached), and a planning or preflight error as ``invoke`` would; the last
        event published is ``run.end`` (carrying the first result) or ``run.error``.
        """
        ctx = RunContext()
        try:
            query = asked.request.query if isinstance(asked, Plan) else asked.query
            await publish(ctx.event(RunStartEvent, query=query))
            plan = asked if isinstance(asked, Plan) else planner(gather_request(asked, max_routes))
            await publish(compiled_event(plan, ctx))
            steps, pruned = preflight(plan, self.registry, self.availability)
            if max_routes is not None:
                steps = steps[:max_routes]
            for item in pruned:
                await publish(ctx.event(RoutePrunedEvent, **item.call.ref.fields(), reason=item.reason))
            result = await self._all(plan, steps, BudgetMeter(budget), ctx, publish)
        except (anyio.get_cancelled_exc_class(), GeneratorExit) as stopped:
            with anyio.move_on_after(SINK_GRACE_SECONDS, shield=True):
                await publish(ctx.error_event(stopped, error_type="Cancelled", error="the run was cancelled"))
            raise
        except Exception as exc:
            await publish(ctx.error_event(exc))
            raise
        return result

    async def _all(
        self, plan: Plan, steps: list[Step], meter: BudgetMeter, ctx: RunContext, publish: Publish
    ) -> GatherResult:
        outcomes: dict[int, ToolResult | SchemaRouterError] = {}

        async def one(position: int, step: Step) -> None:
            route = RunContext(ctx.run_id)
            route.events = ctx.events  # one sequence of events for the whole gather
            route.failing_origins = ctx.failing_origins  # one outage seen by every route
            route.gathering = True  # a timeout is paid once: no retry of a transport failure
            mine: list[RouterEvent] = []
            try:
                async for event in self.chain.run([step], meter, route, request=plan.request):
                    mine.append(event)
                    await publish(event)
            except SchemaRouterError as exc:
                outcomes[position] = _cause(exc)
            else:
                outcomes[position] = _result(step, route, mine, plan)
            finally:
                ctx.attempts.extend(route.attempts)
                ctx.route.extend(route.route)

        async with anyio.create_task_group() as group:
            for position, step in enumerate(steps):
                group.start_soon(one, position, step)
        results = [r for _, r in sorted(outcomes.items()) if isinstance(r, ToolResult)]
        failures = {
            steps[p].call.access_path: e for p, e in sorted(outcomes.items()) if not isinstance(e, ToolResult)
        }
        if not results:
            tried = ", ".join(failures) or "no route could run"
            raise AllRoutesUnavailableError(f"no route answered the gather: {tried}", attempts=ctx.attempts)
        first = results[0]
        await publish(
            ctx.event(RunEndEvent, tool=first.tool, endpoint=first.endpoint, fallbacks=0, result=first)
        )
        return GatherResult(results=results, failures=failures, events=list(ctx.events), plan=plan)


def _result(step: Step, route: RunContext, events: list[RouterEvent], plan: Plan) -> ToolResult:
    call = step.call
    records, bounds = bounded_records(route, plan.request.max_records)
    return ToolResult(
        tool=call.tool,
        endpoint=call.endpoint,
        provider=call.provider,
        access_mode=call.access_mode,
        records=records,
        attempts=list(route.attempts),
        route=list(route.route),
        events=events,
        plan=plan,
        provenance=route.provenance,
        **served_fields(route),
        **bounds,
    )


def _cause(error: SchemaRouterError) -> SchemaRouterError:
    """The route's own error: a one-route chain's ``AllRoutesUnavailableError`` is unwrapped."""
    if isinstance(error, AllRoutesUnavailableError) and error.attempts:
        last = error.attempts[-1].exception
        if isinstance(last, SchemaRouterError):
            return last
    return error
