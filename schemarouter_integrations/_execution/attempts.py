"""One call's attempts: what each attempt's end means, decided in one place.

:class:`CallAttempts` runs one attempt at a time. An answered attempt is one object, its
:class:`Answered` (records, counts and the events it produced); any other end is a
:class:`Verdict`: the events, then an :class:`Unavailable` outcome, an error that ends the
run, or the delay before the next attempt. How an error is treated is :func:`falls_back`:
an :class:`InvocationUnavailableError` from the invoker is retried while the endpoint's
``RetryPolicy`` allows, then cools the route down; any other error ends the run. Every
event is handed on through the run's one emitter (``ctx.heard`` / ``ctx.emit``: nothing in
a quiet run, which only records them); the chain (:mod:`.chain`) drives the attempts,
streaming their events, or only awaiting the outcome when nobody reads them.
"""

from __future__ import annotations

import inspect
import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from .._availability import Availability
from .._caching import CacheHints
from .._ratelimit import RateGate
from ..errors import (
    BudgetExceededError,
    InvocationUnavailableError,
    InvokerCrashedError,
    SchemaRouterError,
)
from ..events import (
    RouteInnerFallbackEvent,
    RouterEvent,
    ToolEndEvent,
    ToolErrorEvent,
    ToolRetryEvent,
    ToolStartEvent,
)
from .budget import BudgetMeter
from .context import RunContext
from .notes import CallNotes, noting
from .outcomes import Answered, Unavailable, passed_over, tool_error_payload
from .projection import listing_count, records_of
from .retry import backoff_seconds
from .scopes import InvocationScopes

if TYPE_CHECKING:
    from .._registry import Invoker
    from .preflight import Step


class Runner(Protocol):
    """What the attempts of a call use of the chain that runs them (:class:`~.chain.ChainRunner`)."""

    availability: Availability
    gate: RateGate | None
    scopes: InvocationScopes
    rng: random.Random | None


GATHER_MAX_ATTEMPTS = 2
"""Attempts of one route of a gather at most: a 429 or 503 is retried once."""


def falls_back(error: BaseException) -> bool:
    """The one rule: only an invoker's :class:`InvocationUnavailableError` is retried,
    cools its route down and moves on to the next route."""
    return isinstance(error, InvocationUnavailableError)


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


@dataclass(slots=True)
class Verdict:
    """How one attempt that did not answer ended: its *events* (those a listener hears),
    then an *outcome* (:class:`Unavailable`), an *error* ending the run, or the *delay*
    before the next attempt. An answered attempt is its :class:`Answered` alone."""

    events: tuple[RouterEvent, ...] = ()
    outcome: Unavailable | None = None
    error: BaseException | None = None
    delay: float | None = None

    def settle(self) -> Unavailable:
        """The outcome, or the error raised."""
        if self.error is not None:
            raise self.error
        assert self.outcome is not None
        return self.outcome


class CallAttempts:
    """The attempts of one call, charged already; built when the call starts (``tool.start``)."""

    __slots__ = (
        "answers_before",
        "attempt",
        "ctx",
        "failed",
        "gate",
        "held_back",
        "meter",
        "runner",
        "start",
        "started",
        "step",
    )

    def __init__(self, runner: Runner, step: Step, meter: BudgetMeter, ctx: RunContext) -> None:
        call = step.call
        self.runner, self.step, self.meter, self.ctx = runner, step, meter, ctx
        self.start: ToolStartEvent = ctx.event_from(
            ToolStartEvent,
            call.ref.fields,
            scope=call.scope,
            arguments=dict(call.arguments),  # copies taken now: an invoker may change the call's
            server_projection=dict(call.server_projection),
        )
        self.started = time.perf_counter()
        self.answers_before = runner.availability.answers_on(step.spec.origin)
        self.attempt = 1
        gate = runner.gate
        self.gate = gate if gate is not None and gate.active else None
        self.failed: InvocationUnavailableError | None = None  # the attempt a retry follows
        self.held_back = False  # the route's rate limit held back a retry of *failed*

    async def once(self, invoker: Invoker) -> Answered | Verdict:
        """Run the next attempt: its :class:`Answered` (the one object of an answered attempt),
        or the :class:`Verdict` on how it failed."""
        call, notes = self.step.call, None
        try:
            if self.gate is not None:
                await self.gate.admit(call)  # waits for its turn, or raises RateLimitedError
            scopes = self.runner.scopes
            if scopes.active or _may_relay(invoker):
                with noting(notes := CallNotes()):
                    if scopes.active:
                        with scopes.entered(self.start):
                            raw = await _answer(invoker, call)
                    else:
                        raw = await _answer(invoker, call)
            else:  # an in-process function or an HTTP target: no notes to take
                raw = invoker(call)
                if inspect.isawaitable(raw):
                    raw = await raw
        except Exception as exc:
            return self._failed(exc)
        return self._answered(raw, notes)

    def _failed(self, exc: Exception) -> Verdict:
        """What an attempt that raised *exc* means: a retry, an outcome, or the run's end."""
        step, ctx, runner, attempt = self.step, self.ctx, self.runner, self.attempt
        call, origin, path = step.call, step.spec.origin, step.call.access_path
        if not isinstance(exc, SchemaRouterError) and self._origin_failing(origin):
            exc = _failing_origin_error(path, origin, exc)
        ctx.attempt(path, attempt, exc)
        skipped = passed_over(exc)
        if skipped is not None:
            assert isinstance(exc, InvocationUnavailableError)
            if self.failed is None or skipped == "loop":  # passed over: no retry, no cooldown
                error = ctx.event(ToolErrorEvent, **tool_error_payload(call, exc, attempt, retryable=True))
                return Verdict(ctx.heard(error), outcome=Unavailable(exc, reason=skipped))
            exc, attempt, self.held_back = self.failed, attempt - 1, True  # the retried failure stands
        if not falls_back(exc):
            error = ctx.event(ToolErrorEvent, **tool_error_payload(call, exc, attempt, retryable=False))
            return Verdict(
                ctx.heard(error), error=exc if isinstance(exc, SchemaRouterError) else _crashed(path, exc)
            )
        assert isinstance(exc, InvocationUnavailableError)
        retry = step.endpoint.retry
        too_long = exc.retry_after is not None and exc.retry_after > retry.max_backoff_seconds
        again = retries_left(exc, attempt, retry.max_attempts, gathering=ctx.gathering)
        if self.held_back or not again or too_long or self._origin_cooled(origin):
            error = ctx.event(ToolErrorEvent, **tool_error_payload(call, exc, attempt, retryable=True))
            cooled = runner.availability.invocation_failed(
                call.ref, exc, stamp=ctx.event, answers_before=self.answers_before
            )
            if origin is not None:
                ctx.failing_origins.add(origin)
            return Verdict(ctx.heard(error, cooled), outcome=Unavailable(exc))
        try:
            self.meter.charge_attempt(path, step.endpoint.cost_units)
        except BudgetExceededError as over:
            error = ctx.event(ToolErrorEvent, **tool_error_payload(call, exc, attempt, retryable=True))
            return Verdict(ctx.heard(error), error=over)
        self.failed = exc
        delay = backoff_seconds(retry, attempt, retry_after=exc.retry_after, rng=runner.rng)
        retried = ctx.event(
            ToolRetryEvent, **call.ref.fields(), attempt=attempt + 1, delay_seconds=delay, error=str(exc)
        )
        self.attempt = attempt + 1
        return Verdict(ctx.heard(retried), delay=delay)

    def _origin_failing(self, origin: str | None) -> bool:
        """True when *origin* cools down, or a path on it failed as unavailable in this run."""
        return origin is not None and (origin in self.ctx.failing_origins or self._origin_cooled(origin))

    def _origin_cooled(self, origin: str | None) -> bool:
        return self.runner.availability.origin_cooling(origin) is not None

    def _answered(self, raw: Any, notes: CallNotes | None) -> Answered | Verdict:
        """The records of an answer, the route marked available again, and ``tool.end``."""
        step, ctx, attempt = self.step, self.ctx, self.attempt
        call, path = step.call, step.call.access_path
        hints = None
        if type(raw) is CacheHints:
            hints, raw = raw, raw.response
        try:
            records = records_of(call, step.endpoint, raw)
        except SchemaRouterError as exc:  # the answer broke its contract: no fallback either
            ctx.attempt(path, attempt, exc)
            error = ctx.event(ToolErrorEvent, **tool_error_payload(call, exc, attempt, retryable=False))
            return Verdict(ctx.heard(error), error=exc)
        ctx.attempt(path, attempt)
        route = call.ref
        reopened = self.runner.availability.reopened(route, reason="invocation succeeded", stamp=ctx.event)
        events: tuple[RouterEvent, ...] = () if reopened is None else (reopened,)
        if notes is not None and notes.inner_fallbacks:  # the other router's: never tool.fallback
            fields = route.fields()
            events += tuple(
                ctx.event(RouteInnerFallbackEvent, **fields, **inner.model_dump())
                for inner in notes.inner_fallbacks
            )
        end = ctx.event_from(
            ToolEndEvent,
            route.fields,
            records=len(records),
            attempts=attempt,
            duration_ms=round((time.perf_counter() - self.started) * 1000, 3),
        )
        total, more = listing_count(raw, step.endpoint.records_path)
        provenance = None if notes is None else notes.provenance
        return Answered(records, provenance, hints, total, more, ctx.heard(*events, end))


_KEEPS_NO_NOTES = ("python:", "http://", "https://")
"""How the answer scopes of invokers that never relay another router's answer begin: the
in-process functions' (``python:...``) and the HTTP targets' (their origin)."""


def _may_relay(invoker: Invoker) -> bool:
    """Whether *invoker* may report a relayed answer on its call's notes (:mod:`.notes`): any
    invoker but those whose declared answer scope says they never do."""
    scope = getattr(invoker, "answer_scope", None)
    return not (isinstance(scope, str) and scope.startswith(_KEEPS_NO_NOTES))


async def _answer(invoker: Invoker, call: Any) -> Any:
    raw = invoker(call)
    if inspect.isawaitable(raw):
        raw = await raw
    return raw


def _crashed(path: str, exc: Exception) -> InvokerCrashedError:
    """What an invoker's own bug ends the run with (``raise ... from exc``)."""
    crashed = InvokerCrashedError(f"{path} raised {type(exc).__name__}: {exc}")
    crashed.__cause__ = crashed.__context__ = exc
    return crashed


def _failing_origin_error(path: str, origin: str | None, exc: Exception) -> InvocationUnavailableError:
    """What a crash of an invoker means while its origin is failing: the service is down."""
    text = str(exc).strip()
    line = text.splitlines()[0][:300] if text else ""
    error = InvocationUnavailableError(
        f"{path} raised {type(exc).__name__}: {line} while its origin {origin} is failing"
    )
    error.__cause__ = exc
    return error
