"""The fallback chain: where and why a run moves on from one route to the next.

A run walks the steps that passed preflight in order. Each step is one logical call:
budget first, then attempts with backoff. How an attempt's error is treated is decided by
one predicate, :func:`falls_back`: an :class:`InvocationUnavailableError` from the invoker
is retried while the endpoint's ``RetryPolicy`` allows, then cools the route down
(``route.unavailable``) and hands over to the next step (``tool.fallback``). Any other
error - validation, policy, budget, a 4xx, an invoker bug - ends the run at once, and so
does cancellation. A call ends as a typed outcome, :class:`Answered` or
:class:`Unavailable`; a route that cannot run at all is a :class:`Skip`.
"""

from __future__ import annotations

import inspect
import random
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from contextlib import aclosing
from functools import partial
from typing import Any

from .._availability import Availability
from .._caching import CacheHints
from .._contracts import HedgePolicy
from .._planning import PlanRequest, ToolCall
from .._ratelimit import RateGate
from .._registry import Invoker, Registry
from ..errors import (
    AllRoutesUnavailableError,
    BudgetExceededError,
    InvocationUnavailableError,
    InvokerCrashedError,
    NoRouteError,
    RateLimitedError,
    SchemaRouterError,
)
from ..events import (
    RouteInnerFallbackEvent,
    RoutePrunedEvent,
    RouterEvent,
    ToolEndEvent,
    ToolErrorEvent,
    ToolFallbackEvent,
    ToolRetryEvent,
    ToolStartEvent,
)
from .answers import AnswerService
from .budget import BudgetMeter
from .context import RunContext
from .hedge import Hedger
from .notes import CallNotes, noting
from .outcomes import Answered, FallbackReason, Unavailable, fallback_payload, tool_error_payload
from .preflight import Skip, Step
from .projection import records_of
from .retry import backoff_seconds
from .scopes import InvocationScopes

Sleep = Callable[[float], Awaitable[None]]


def falls_back(error: BaseException) -> bool:
    """The one rule: only an invoker's :class:`InvocationUnavailableError` is retried,
    cools its route down and moves on to the next route."""
    return isinstance(error, InvocationUnavailableError)


GATHER_MAX_ATTEMPTS = 2
"""Attempts of one route of a gather at most: a 429 or 503 is retried once."""


def retries_left(
    error: InvocationUnavailableError, attempt: int, max_attempts: int, *, gathering: bool
) -> bool:
    """Whether attempt *attempt*, failed with *error*, is followed by another.

    In a gather every route runs anyway, so nothing waits for a route that could not be
    reached: a transport failure (timeout, refused or reset connection) is not retried (its
    origin cools down and the gather reports it), and a refusal with a status (429, 503) is
    retried once, after its Retry-After. A Retry-After longer than the policy's
    ``max_backoff_seconds`` is never waited for.
    """
    if gathering:
        if error.transport:
            return False
        max_attempts = min(max_attempts, GATHER_MAX_ATTEMPTS)
    return attempt < max_attempts


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
        """
        answers = self.answers
        calls = self._call if answers is None else partial(answers.call, self._call, request)
        loud = not ctx.quiet  # a quiet run's events are recorded in ctx only: nobody reads them here
        left: ToolCall | None = None  # the route the next tool.fallback leaves
        reason: FallbackReason = "unavailable"
        position = 0
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
            meter.charge_call(call.access_path, step.endpoint.cost_units)
            if left is not None:
                fallback = ctx.event(ToolFallbackEvent, **fallback_payload(left, call, reason))
                if loud:
                    yield fallback
            ctx.route.append(call.access_path)
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
            else:
                async for item in calls(step, invoker, meter, ctx):
                    if isinstance(item, Answered | Unavailable):
                        outcome = item
                    elif loud:  # an event
                        yield item
            if isinstance(outcome, Answered):
                ctx.winner, ctx.records, ctx.provenance = ended, outcome.records, outcome.provenance
                return
            left, reason = ended, outcome.reason if isinstance(outcome, Unavailable) else "unavailable"
            position += used
        raise AllRoutesUnavailableError(
            f"every route was unavailable: {', '.join(ctx.route) or _skipped(steps)}",
            attempts=ctx.failed_attempts(),
        )

    def _origin_failing(self, origin: str | None, ctx: RunContext) -> bool:
        """True when *origin* cools down, or a path on it failed as unavailable in this run."""
        return origin is not None and (origin in ctx.failing_origins or self._origin_cooled(origin))

    def _origin_cooled(self, origin: str | None) -> bool:
        return self.availability.origin_cooling(origin) is not None

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
        """One call, charged already: attempts with backoff, then its records; ends with the outcome."""
        call, endpoint, path = step.call, step.endpoint, step.call.access_path
        route = call.ref
        identity = route.fields()
        start = ctx.event(
            ToolStartEvent,
            **identity,
            scope=call.scope,
            arguments=dict(call.arguments),
            server_projection=dict(call.server_projection),
        )
        loud = not ctx.quiet  # a quiet run's events are recorded in ctx only (see ``run``)
        if loud:
            yield start
        started = time.perf_counter()
        answers_before = self.availability.answers_on(step.spec.origin)
        attempt = 1
        gate = self.gate if self.gate is not None and self.gate.active else None
        failed: InvocationUnavailableError | None = None  # the attempt a retry follows
        held_back = False  # the route's rate limit held back a retry of *failed*
        while True:
            notes = CallNotes()
            try:
                if gate is not None:
                    await gate.admit(call)  # waits for its turn, or raises RateLimitedError
                with noting(notes):
                    if self.scopes.active:
                        raw = await self._scoped(invoker, call, start)
                    else:
                        raw = invoker(call)
                        if inspect.isawaitable(raw):
                            raw = await raw
                break
            except Exception as exc:
                if not isinstance(exc, SchemaRouterError) and self._origin_failing(step.spec.origin, ctx):
                    exc = _failing_origin_error(path, step.spec.origin, exc)
                ctx.attempt(path, attempt, exc)
                if isinstance(exc, RateLimitedError):
                    if failed is None:  # passed over: no retry, no cooldown
                        yield ctx.event(
                            ToolErrorEvent, **tool_error_payload(call, exc, attempt, retryable=True)
                        )
                        yield Unavailable(exc, reason="rate_limited")
                        return
                    exc, attempt, held_back = failed, attempt - 1, True  # the retried failure stands
                if not falls_back(exc):
                    yield ctx.event(ToolErrorEvent, **tool_error_payload(call, exc, attempt, retryable=False))
                    if isinstance(exc, SchemaRouterError):
                        raise
                    raise InvokerCrashedError(f"{path} raised {type(exc).__name__}: {exc}") from exc
                assert isinstance(exc, InvocationUnavailableError)
                retry = endpoint.retry
                too_long = exc.retry_after is not None and exc.retry_after > retry.max_backoff_seconds
                again = retries_left(exc, attempt, retry.max_attempts, gathering=ctx.gathering)
                if held_back or not again or too_long or self._origin_cooled(step.spec.origin):
                    error = ctx.event(
                        ToolErrorEvent, **tool_error_payload(call, exc, attempt, retryable=True)
                    )
                    cooled = self.availability.invocation_failed(
                        route, exc, stamp=ctx.event, answers_before=answers_before
                    )
                    if loud:
                        yield error
                        yield cooled
                    if step.spec.origin is not None:
                        ctx.failing_origins.add(step.spec.origin)
                    yield Unavailable(exc)
                    return
                try:
                    meter.charge_attempt(path, endpoint.cost_units)
                except BudgetExceededError:
                    yield ctx.event(ToolErrorEvent, **tool_error_payload(call, exc, attempt, retryable=True))
                    raise
                failed = exc
                delay = backoff_seconds(retry, attempt, retry_after=exc.retry_after, rng=self.rng)
                yield ctx.event(
                    ToolRetryEvent,
                    **identity,
                    attempt=attempt + 1,
                    delay_seconds=delay,
                    error=str(exc),
                )
                await self.sleep(delay)
                attempt += 1
        hints = None
        if type(raw) is CacheHints:
            hints, raw = raw, raw.response
        try:
            records = records_of(call, endpoint, raw)
        except SchemaRouterError as exc:  # the answer broke its contract: no fallback either
            ctx.attempt(path, attempt, exc)
            yield ctx.event(ToolErrorEvent, **tool_error_payload(call, exc, attempt, retryable=False))
            raise
        ctx.attempt(path, attempt)
        reopened = self.availability.reopened(route, reason="invocation succeeded", stamp=ctx.event)
        if reopened is not None and loud:
            yield reopened
        for inner in notes.inner_fallbacks:  # the other router's fallbacks: events, never tool.fallback
            yield ctx.event(RouteInnerFallbackEvent, **identity, **inner.model_dump())
        end = ctx.event(
            ToolEndEvent,
            **identity,
            records=len(records),
            attempts=attempt,
            duration_ms=round((time.perf_counter() - started) * 1000, 3),
        )
        if loud:
            yield end
        yield Answered(records, notes.provenance, hints)

    async def _scoped(self, invoker: Invoker, call: ToolCall, start: ToolStartEvent) -> Any:
        """One attempt inside the installed invocation scopes (:mod:`.scopes`)."""
        with self.scopes.entered(start):
            raw = invoker(call)
            if inspect.isawaitable(raw):
                raw = await raw
            return raw


def _skipped(steps: list[Step]) -> str:
    """What a run that called nothing left out: paths whose origin cooled after planning."""
    origins = sorted({s.spec.origin for s in steps if s.spec.origin is not None})
    paths = ", ".join(s.call.access_path for s in steps)
    return f"{paths} (not called: their origin {', '.join(origins)} cools down)" if origins else paths


def _failing_origin_error(path: str, origin: str | None, exc: Exception) -> InvocationUnavailableError:
    """What a crash of an invoker means while its origin is failing: the service is down."""
    text = str(exc).strip()
    line = text.splitlines()[0][:300] if text else ""
    error = InvocationUnavailableError(
        f"{path} raised {type(exc).__name__}: {line} while its origin {origin} is failing"
    )
    error.__cause__ = exc
    return error


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
