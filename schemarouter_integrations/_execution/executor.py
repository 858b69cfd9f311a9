"""Running a compiled plan: retries, cooldowns, bounded fallback and typed events.

One run: ``plan.compiled``; preflight of the whole chain (policy, fingerprints, bindings,
arguments: nothing is invoked when it fails); then per call: budget, ``tool.start``,
attempts with backoff, output validation and projection; ``run.end`` or ``run.error``.
Only :class:`InvocationUnavailableError` raised by an invoker is retried, cools the path
down and falls back to the next call; any other error, or cancellation, ends the run.
"""

from __future__ import annotations

import inspect
import random
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from typing import Any, Literal

from .._availability import CooldownTracker
from .._contracts import EndpointSpec
from .._contracts.schemas import compiled_validator, validation_errors
from .._planning import Plan, ToolCall
from .._registry import Registry
from ..errors import (
    AllRoutesUnavailableError,
    BudgetExceededError,
    InvocationUnavailableError,
    InvokerCrashedError,
    NoRouteError,
    RouteAttempt,
    SchemaRouterError,
    SchemaValidationError,
)
from ..events import (
    PlanCompiledEvent,
    RouteAvailableEvent,
    RoutePrunedEvent,
    RouterEvent,
    RouteUnavailableEvent,
    RunEndEvent,
    ToolEndEvent,
    ToolErrorEvent,
    ToolFallbackEvent,
    ToolResult,
    ToolRetryEvent,
    ToolStartEvent,
)
from .budget import BudgetMeter, RunBudget
from .context import RunContext
from .preflight import Step, preflight
from .projection import locate_records, project_records
from .retry import backoff_seconds

Sleep = Callable[[float], Awaitable[None]]
PlanSource = Plan | Callable[[], Plan]
FallbackReason = Literal["unavailable", "binding_unavailable"]


class _RouteFailed(Exception):
    """Internal: the route's retries are exhausted; move on to the next call."""


class Executor:
    """Runs plans as compiled. It never invents a route."""

    def __init__(
        self,
        registry: Registry,
        cooldowns: CooldownTracker,
        *,
        sleep: Sleep,
        rng: random.Random | None = None,
    ) -> None:
        self.registry = registry
        self.cooldowns = cooldowns
        self.sleep = sleep
        self.rng = rng

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
            yield ctx.event(
                PlanCompiledEvent,
                need=list(plan.need),
                primary=plan.primary.access_path if plan.primary else None,
                fallbacks=[c.access_path for c in plan.fallbacks],
                rejected=len(plan.rejected),
            )
            steps, pruned = preflight(plan, self.registry, self.cooldowns)
            for item in pruned:
                yield ctx.event(RoutePrunedEvent, **_route(item.call), reason=item.reason)
            async for event in self._run_chain(steps, BudgetMeter(budget), ctx):
                yield event
            winner = ctx.winner
            if winner is None:  # _run_chain either sets a winner or raises
                raise SchemaRouterError("the run ended without a result")
            result = ToolResult(
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

    async def _run_chain(
        self, steps: list[Step], meter: BudgetMeter, ctx: RunContext
    ) -> AsyncIterator[RouterEvent]:
        """Run the steps in order until one succeeds; only unavailability moves on.

        Bindings and contracts are checked again at call time, since they may change while
        the run goes on. An unbound primary hands over to the next route with
        ``tool.fallback`` (reason ``binding_unavailable``). A later route that lost its
        binding or contract during the run is skipped with ``route.pruned``; it never
        started, so the next ``tool.fallback`` still leaves the route that ran and failed.
        """
        failures: list[RouteAttempt] = []
        source: ToolCall | None = None  # the route the next tool.fallback leaves
        reason: FallbackReason = "unavailable"
        for position, step in enumerate(steps):
            call = step.call
            last = position + 1 == len(steps)
            invoker = self._ready_invoker(step)
            if isinstance(invoker, str):
                if position == 0 and not last:
                    source, reason = call, "binding_unavailable"
                    continue
                if position > 0:
                    yield ctx.event(RoutePrunedEvent, **_route(call), reason=invoker)
                if last:
                    raise _no_binding(call, failures)
                continue
            meter.charge_call(call.access_path, step.endpoint.cost_units)
            if source is not None:
                yield ctx.event(ToolFallbackEvent, **_fallback(source, call, reason))
            ctx.route.append(call.access_path)
            try:
                async for event in self._attempts(step, invoker, meter, ctx, failures):
                    yield event
            except _RouteFailed:
                source, reason = call, "unavailable"
                continue
            return
        raise AllRoutesUnavailableError(
            f"every route was unavailable: {', '.join(ctx.route)}", attempts=failures
        )

    def _ready_invoker(self, step: Step) -> Callable[[ToolCall], Any] | str:
        """The invoker bound to the contract *step* was checked against, or why there is none."""
        call = step.call
        spec = self.registry.tool(call.tool)
        if spec is None:
            return f"tool {call.tool!r} was removed during the run"
        if spec is not step.spec:
            return f"the contract of {call.tool!r} was registered again during the run"
        binding = self.registry.binding(call.tool)
        if binding is None or binding.fingerprint != call.tool_fingerprint:
            return f"binding is {self.registry.binding_state(call.tool)}: it changed during the run"
        return binding.invoker

    async def _attempts(
        self,
        step: Step,
        invoker: Callable[[ToolCall], Any],
        meter: BudgetMeter,
        ctx: RunContext,
        failures: list[RouteAttempt],
    ) -> AsyncIterator[RouterEvent]:
        """One call, charged already: attempts with backoff, then output validation and projection."""
        call, endpoint, path = step.call, step.endpoint, step.call.access_path
        yield ctx.event(
            ToolStartEvent,
            **_route(call),
            scope=call.scope,
            arguments=dict(call.arguments),
            server_projection=dict(call.server_projection),
        )
        started = time.perf_counter()
        attempt = 1
        while True:
            try:
                raw = invoker(call)
                if inspect.isawaitable(raw):
                    raw = await raw
                break
            except InvocationUnavailableError as exc:
                ctx.attempt(path, attempt, exc)
                failures.append(RouteAttempt(path, attempt, exc))
                hint_too_long = (
                    exc.retry_after is not None and exc.retry_after > endpoint.retry.max_backoff_seconds
                )
                if attempt >= endpoint.retry.max_attempts or hint_too_long:
                    yield ctx.event(ToolErrorEvent, **_tool_error(call, exc, attempt, True))
                    yield self._cool_down(call, exc, ctx)
                    raise _RouteFailed from exc
                try:
                    meter.charge_attempt(path, endpoint.cost_units)
                except BudgetExceededError:
                    yield ctx.event(ToolErrorEvent, **_tool_error(call, exc, attempt, True))
                    raise
                delay = backoff_seconds(endpoint.retry, attempt, retry_after=exc.retry_after, rng=self.rng)
                yield ctx.event(
                    ToolRetryEvent,
                    **_route(call),
                    attempt=attempt + 1,
                    delay_seconds=delay,
                    error=str(exc),
                )
                await self.sleep(delay)
                attempt += 1
            except SchemaRouterError as exc:
                ctx.attempt(path, attempt, exc)
                yield ctx.event(ToolErrorEvent, **_tool_error(call, exc, attempt, False))
                raise
            except Exception as exc:
                ctx.attempt(path, attempt, exc)
                yield ctx.event(ToolErrorEvent, **_tool_error(call, exc, attempt, False))
                raise InvokerCrashedError(f"{path} raised {type(exc).__name__}: {exc}") from exc
        try:
            records = self._records_of(call, endpoint, raw)
        except SchemaRouterError as exc:
            ctx.attempt(path, attempt, exc)
            yield ctx.event(ToolErrorEvent, **_tool_error(call, exc, attempt, False))
            raise
        ctx.attempt(path, attempt)
        if self.cooldowns.record_success(path):
            yield ctx.event(RouteAvailableEvent, **_route(call), reason="invocation succeeded")
        ctx.winner, ctx.records = call, records
        yield ctx.event(
            ToolEndEvent,
            **_route(call),
            records=len(records),
            attempts=attempt,
            duration_ms=round((time.perf_counter() - started) * 1000, 3),
        )

    def _cool_down(self, call: ToolCall, exc: InvocationUnavailableError, ctx: RunContext) -> RouterEvent:
        """Mark the path unavailable for its cooldown; the ``route.unavailable`` event."""
        mark = self.cooldowns.record_failure(
            call.access_path,
            reason=f"{type(exc).__name__}: {exc}",
            at_least=exc.retry_after,
            escalate=False,
        )
        return ctx.event(
            RouteUnavailableEvent,
            **_route(call),
            cooldown_seconds=round(max(mark.until - self.cooldowns.clock(), 0.0), 6),
            failures=mark.failures,
            reason=mark.reason,
        )

    def _records_of(self, call: ToolCall, endpoint: EndpointSpec, raw: Any) -> list[dict[str, Any]]:
        """Validate *raw* against the output schema, locate its records, project them."""
        if endpoint.output_schema is not None:
            validator = compiled_validator(endpoint.output_schema, key=f"out:{call.endpoint_fingerprint}")
            errors = validation_errors(validator, raw)
            if errors:
                raise SchemaValidationError(
                    f"response of {call.access_path} breaks its output schema: {'; '.join(errors)}",
                    errors=errors,
                    subject="response",
                )
        records = locate_records(raw, endpoint.records_path)
        return project_records(records, endpoint, call.selected_fields)


def _route(call: ToolCall) -> dict[str, Any]:
    return {
        "tool": call.tool,
        "endpoint": call.endpoint,
        "provider": call.provider,
        "access_mode": call.access_mode,
    }


def _tool_error(call: ToolCall, exc: BaseException, attempts: int, retryable: bool) -> dict[str, Any]:
    return {
        **_route(call),
        "error_type": type(exc).__name__,
        "error": str(exc),
        "attempts": attempts,
        "retryable": retryable,
    }


def _fallback(source: ToolCall, target: ToolCall, reason: FallbackReason) -> dict[str, Any]:
    return {
        "from_tool": source.tool,
        "from_endpoint": source.endpoint,
        "to_tool": target.tool,
        "to_endpoint": target.endpoint,
        "from_provider": source.provider,
        "to_provider": target.provider,
        "from_access_mode": source.access_mode,
        "to_access_mode": target.access_mode,
        "scope": target.scope,
        "same_provider": bool(source.provider) and source.provider == target.provider,
        "reason": reason,
    }


def _no_binding(call: ToolCall, failures: list[RouteAttempt]) -> SchemaRouterError:
    if failures:
        return AllRoutesUnavailableError(
            f"every route was unavailable; the last one, {call.access_path}, has no ready binding",
            attempts=failures,
        )
    return NoRouteError(
        f"{call.access_path} has no invoker bound to its current contract and no bound "
        "alternative is left in the chain"
    )
