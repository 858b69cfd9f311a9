"""Running a compiled plan: retries, cooldowns, bounded fallback and typed events."""

from __future__ import annotations

import inspect
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from ..contracts.schemas import compiled_validator, validation_errors
from ..errors import (
    AllRoutesUnavailableError,
    InvocationUnavailableError,
    NonRetryableInvocationError,
    RouteAttempt,
    SchemaRouterError,
    SchemaValidationError,
)
from ..health import CooldownTracker
from ..planning import Plan, ToolCall
from ..registry import Registry
from .budget import BudgetMeter, RunBudget
from .context import RunContext
from .events import (
    PlanCompiledEvent,
    RouteAvailableEvent,
    RoutePrunedEvent,
    RouterEvent,
    RouteUnavailableEvent,
    RunEndEvent,
    RunErrorEvent,
    ToolEndEvent,
    ToolErrorEvent,
    ToolFallbackEvent,
    ToolRetryEvent,
    ToolStartEvent,
)
from .preflight import preflight
from .projection import locate_records, project_records
from .result import ToolResult
from .retry import backoff_seconds

Sleep = Callable[[float], Awaitable[None]]


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

    async def run(self, plan: Plan, budget: RunBudget | None, ctx: RunContext) -> AsyncIterator[RouterEvent]:
        """Yield the run's events live; the last one is ``run.end`` or ``run.error``.

        Cancellation propagates as is (nothing is marked unavailable).
        """
        yield ctx.event(
            PlanCompiledEvent,
            need=list(plan.need),
            primary=plan.primary.access_path if plan.primary else None,
            fallbacks=[c.access_path for c in plan.fallbacks],
            rejected=len(plan.rejected),
        )
        try:
            calls, pruned = preflight(plan, self.registry, self.cooldowns)
            for item in pruned:
                yield ctx.event(RoutePrunedEvent, **_route(item.call), reason=item.reason)
            async for event in self._run_chain(calls, BudgetMeter(budget), ctx):
                yield event
            result = ToolResult(
                tool=ctx.route[-1].split(".", 1)[0],
                endpoint=ctx.route[-1].split(".", 1)[1],
                provider=ctx.winner.provider if ctx.winner else None,
                access_mode=ctx.winner.access_mode if ctx.winner else None,
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
                fallbacks=len(result.route) - 1,
                result=result,
            )
        except SchemaRouterError as exc:
            yield ctx.event(RunErrorEvent, error_type=type(exc).__name__, error=str(exc), exception=exc)

    async def _run_chain(
        self, calls: list[ToolCall], meter: BudgetMeter, ctx: RunContext
    ) -> AsyncIterator[RouterEvent]:
        failures: list[RouteAttempt] = []
        previous: ToolCall | None = None
        reason = "unavailable"
        for position, call in enumerate(calls):
            binding = self.registry.binding(call.tool)
            spec = self.registry.tool(call.tool)
            ready = binding is not None and spec is not None and binding.fingerprint == spec.fingerprint
            if binding is None or not ready:
                if position + 1 < len(calls):
                    previous, reason = call, "binding_unavailable"
                    continue
                raise _no_binding(call, failures)
            meter.charge_call(call.access_path)
            if previous is not None:
                yield ctx.event(ToolFallbackEvent, **_fallback(previous, call, reason))
            self._validate_arguments(call)
            ctx.route.append(call.access_path)
            try:
                async for event in self._attempts(call, binding.invoker, meter, ctx, failures):
                    yield event
            except _RouteFailed:
                previous, reason = call, "unavailable"
                continue
            return
        raise AllRoutesUnavailableError(
            f"every route was unavailable: {', '.join(ctx.route)}", attempts=failures
        )

    async def _attempts(
        self,
        call: ToolCall,
        invoker: Callable[[ToolCall], Any],
        meter: BudgetMeter,
        ctx: RunContext,
        failures: list[RouteAttempt],
    ) -> AsyncIterator[RouterEvent]:
        endpoint = self._endpoint(call)
        path = call.access_path
        meter.charge_attempt(path, endpoint.cost_units)
        yield ctx.event(
            ToolStartEvent,
            **_route(call),
            scope=call.scope,
            arguments=call.arguments,
            server_projection=call.server_projection,
        )
        started = time.perf_counter()
        attempt = 1
        while True:
            try:
                raw = invoker(call)
                if inspect.isawaitable(raw):
                    raw = await raw
            except InvocationUnavailableError as exc:
                ctx.attempt(path, attempt, exc)
                failures.append(RouteAttempt(path, attempt, exc))
                if attempt < endpoint.retry.max_attempts:
                    delay = backoff_seconds(
                        endpoint.retry, attempt, retry_after=exc.retry_after, rng=self.rng
                    )
                    meter.charge_attempt(path, endpoint.cost_units)
                    yield ctx.event(
                        ToolRetryEvent,
                        **_route(call),
                        attempt=attempt + 1,
                        delay_seconds=delay,
                        error=str(exc),
                    )
                    await self.sleep(delay)
                    attempt += 1
                    continue
                yield ctx.event(ToolErrorEvent, **_tool_error(call, exc, attempt, retryable=True))
                mark = self.cooldowns.record_failure(
                    path, reason=f"{type(exc).__name__}: {exc}", at_least=exc.retry_after
                )
                yield ctx.event(
                    RouteUnavailableEvent,
                    **_route(call),
                    cooldown_seconds=round(mark.until - self.cooldowns.clock(), 6),
                    failures=mark.failures,
                    reason=mark.reason,
                )
                raise _RouteFailed from exc
            except SchemaRouterError as exc:
                ctx.attempt(path, attempt, exc)
                yield ctx.event(ToolErrorEvent, **_tool_error(call, exc, attempt, retryable=False))
                raise
            except Exception as exc:
                ctx.attempt(path, attempt, exc)
                wrapped = NonRetryableInvocationError(f"{path} raised {type(exc).__name__}: {exc}")
                yield ctx.event(ToolErrorEvent, **_tool_error(call, exc, attempt, retryable=False))
                raise wrapped from exc
            break
        ctx.attempt(path, attempt)
        try:
            records = self._records_of(call, raw)
        except SchemaRouterError as exc:
            yield ctx.event(ToolErrorEvent, **_tool_error(call, exc, attempt, retryable=False))
            raise
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

    def _endpoint(self, call: ToolCall) -> Any:
        spec = self.registry.tool(call.tool)
        endpoint = spec.endpoint(call.endpoint) if spec else None
        if endpoint is None:  # preflight guarantees this for the chain
            raise SchemaRouterError(f"{call.access_path} is not registered")
        return endpoint

    def _validate_arguments(self, call: ToolCall) -> None:
        endpoint = self._endpoint(call)
        validator = compiled_validator(endpoint.input_schema, key=f"in:{endpoint.fingerprint}")
        errors = validation_errors(validator, call.arguments)
        if errors:
            raise SchemaValidationError(
                f"arguments for {call.access_path} break its input schema: {'; '.join(errors)}",
                errors=errors,
            )

    def _records_of(self, call: ToolCall, raw: Any) -> list[dict[str, Any]]:
        endpoint = self._endpoint(call)
        if endpoint.output_schema is not None:
            validator = compiled_validator(endpoint.output_schema, key=f"out:{endpoint.fingerprint}")
            errors = validation_errors(validator, raw)
            if errors:
                raise SchemaValidationError(
                    f"response of {call.access_path} breaks its output schema: " + "; ".join(errors),
                    errors=errors,
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


def _tool_error(call: ToolCall, exc: BaseException, attempts: int, *, retryable: bool) -> dict[str, Any]:
    return {
        **_route(call),
        "error_type": type(exc).__name__,
        "error": str(exc),
        "attempts": attempts,
        "retryable": retryable,
    }


def _fallback(source: ToolCall, target: ToolCall, reason: str) -> dict[str, Any]:
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
    from ..errors import NoRouteError

    return NoRouteError(
        f"{call.access_path} has no invoker bound to its current contract and no bound "
        "alternative is left in the chain"
    )
