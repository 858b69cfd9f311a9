"""The answer cache inside a run: fresh hits, one call for identical questions, stale answers.

The chain asks :class:`AnswerService` three things (``_caching`` holds the parts):

* :meth:`~AnswerService.fresh` before a step is charged: a fresh answer of that access path
  is served without a call (``cache.hit``);
* :meth:`~AnswerService.call` around the step's call: concurrent identical calls in this
  process follow one leader (they share its answer, unavailability or error); with a shared
  cache the leader takes a short fleet lock, or waits a bounded time for the worker that
  holds it; an answer is stored with the policy's TTL bounded by the route's hints;
* :meth:`~AnswerService.stale` when a run failed because every route was unavailable: the
  freshest answer younger than ``stale_if_error_seconds`` of any route of the chain compiled
  as if all were healthy is served (``cache.stale``). Never for any other error.

A key holds where the call goes and a digest of its credentials (``_caching/keys.py``). Reads,
locks and writes go through :class:`~.runcache.RunCache`: an entry that does not fit its route
is a miss, and the first cache failure of a run skips the run's other cache operations.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, Protocol

import anyio

from .._caching import CacheStats, Flights, answer_key
from .._caching.keys import scope_of
from .._caching.policies import PolicyBook
from .._contracts import CachePolicy
from .._planning import Plan, PlanRequest, ToolCall
from .._registry import Invoker, Registry
from ..errors import BudgetExceededError, InvocationUnavailableError, NoRouteError
from ..events import CacheHitEvent, CacheStaleEvent, RouterEvent
from ..stores import AnswerCache, AnswerEntry
from .budget import BudgetMeter
from .context import RunContext
from .outcomes import Answered, Unavailable, passed_over
from .preflight import Step
from .runcache import RunCache

Item = RouterEvent | Answered | Unavailable


class CallFn(Protocol):
    def __call__(
        self, step: Step, invoker: Invoker, meter: BudgetMeter, ctx: RunContext
    ) -> AsyncIterator[Item]: ...


@dataclass(frozen=True, slots=True)
class Served:
    """How a run's answer came from the cache: age and whether it is stale."""

    age_seconds: float
    stale: bool = False


class AnswerService:
    """The router's answer cache, its policies and its flights."""

    lock_seconds = 10.0
    """How long a fleet lock holds when its worker never comes back (it expires on Redis)."""
    wait_seconds = 5.0
    """How long a worker waits for the answer of the worker holding the fleet lock."""
    poll_seconds = 0.02
    max_takeovers = 8
    """How many stopped leaders in a row a follower follows before it calls on its own."""

    def __init__(
        self,
        cache: AnswerCache,
        policies: PolicyBook,
        replan: Callable[[PlanRequest], Plan],
        cooling: Callable[[ToolCall], bool],
        registry: Registry | None = None,
    ) -> None:
        self.cache = cache
        self.registry = registry
        self.policies = policies
        self.replan = replan
        self.cooling = cooling
        self.flights = Flights()
        self.lookups = Flights()
        """Concurrent lookups of one key in this process share one read of the cache."""
        self.stats = CacheStats()
        self.run_cache = RunCache(cache, self.stats, registry)

    def key_of(self, call: ToolCall) -> str:
        """The answer key of *call*: its scope is that of the invoker bound to its tool."""
        binding = None if self.registry is None else self.registry.binding(call.tool)
        return answer_key(call, "" if binding is None else scope_of(binding.invoker))

    # -- fresh -----------------------------------------------------------------------
    async def fresh(
        self, step: Step, request: PlanRequest | None, ctx: RunContext
    ) -> list[RouterEvent] | None:
        """The ``cache.hit`` event of a fresh answer of *step* (records set on *ctx*), or None."""
        call = step.call
        policy = self.policies.for_call(request, call)
        if policy is None or policy.ttl_seconds <= 0:
            return None
        key = self.key_of(call)
        if self.flights.join(key) is not None:  # being fetched right now: follow that call
            self.stats.misses += 1
            return None
        entry = await self._lookup(key, call, ctx)
        served = None if entry is None else self.run_cache.fresh_age(entry, policy)
        if entry is None or served is None:
            self.stats.misses += 1
            return None
        self.stats.hits += 1
        ctx.records = list(entry.records)
        ctx.total, ctx.more = entry.total, entry.more
        ctx.served = Served(served)
        hit = ctx.event(
            CacheHitEvent,
            **call.ref.fields(),
            age_seconds=round(served, 6),
            ttl_seconds=min(policy.ttl_seconds, entry.fresh_seconds),
        )
        return [hit]

    async def _lookup(self, key: str, call: ToolCall, ctx: RunContext) -> AnswerEntry | None:
        flight = self.lookups.join(key)
        if flight is not None:
            found: AnswerEntry | None = await flight.wait()
            return found
        flight = self.lookups.lead(key)
        entry: AnswerEntry | None = None
        try:
            entry = await self.run_cache.get(key, call, ctx)
        finally:
            self.lookups.land(key, flight, entry)
        return entry

    # -- one call for identical questions --------------------------------------------
    async def call(
        self,
        inner: CallFn,
        request: PlanRequest | None,
        step: Step,
        invoker: Invoker,
        meter: BudgetMeter,
        ctx: RunContext,
    ) -> AsyncIterator[Item]:
        """*inner* (the chain's call) for *step*, coalesced and stored under its policy."""
        call = step.call
        policy = self.policies.for_call(request, call)
        if policy is None:
            async for item in inner(step, invoker, meter, ctx):
                yield item
            return
        key = self.key_of(call)
        for _ in range(self.max_takeovers):  # a leader that was stopped: a follower takes over
            flight = self.flights.join(key)
            if flight is None:
                break
            try:
                outcome = await flight.wait()
            except InvocationUnavailableError as exc:  # shared unavailability: moves on, no new cooldown
                ctx.attempt(call.access_path, 1, exc)
                yield Unavailable(exc, reason=passed_over(exc) or "unavailable")
                return
            except Exception as exc:
                ctx.attempt(call.access_path, 1, exc)
                raise
            if isinstance(outcome, Answered | Unavailable):
                self.stats.coalesced += 1
                for item in self._shared(outcome, call, policy, ctx):
                    yield item
                return
            # the leader was stopped before it had an outcome: the first follower to wake
            # leads from here (below), the others follow it (the next round)
        flight = self.flights.lead(key)
        outcome = None
        error: BaseException | None = None
        locked = False
        try:
            if self.cache.shared:
                locked, entry = await self._fleet(key, policy, call, ctx)
                if entry is not None:
                    self.stats.fleet_waits += 1
                    outcome = Answered(list(entry.records), total=entry.total, more=entry.more)
                    ctx.served = Served(entry.age(self.cache.now()))
                    yield ctx.event(
                        CacheHitEvent,
                        **call.ref.fields(),
                        age_seconds=round(ctx.served.age_seconds, 6),
                        ttl_seconds=min(policy.ttl_seconds, entry.fresh_seconds),
                        coalesced=True,
                    )
                    yield outcome
                    return
            async for item in inner(step, invoker, meter, ctx):
                if isinstance(item, Answered):
                    outcome = item
                    await self.run_cache.store(key, policy, call, item, ctx)
                elif isinstance(item, Unavailable):
                    outcome = item
                yield item
        except BaseException as exc:
            error = exc
            raise
        finally:
            # a budget is one run's own: followers go themselves rather than share its exhaustion
            shared = (
                error if isinstance(error, Exception) and not isinstance(error, BudgetExceededError) else None
            )
            self.flights.land(key, flight, outcome, shared)
            if locked:
                with anyio.CancelScope(shield=True):
                    await self.run_cache.unlock(key, ctx)

    def _shared(
        self, outcome: Answered | Unavailable, call: ToolCall, policy: CachePolicy, ctx: RunContext
    ) -> list[Item]:
        if isinstance(outcome, Unavailable):
            ctx.attempt(call.access_path, 1, outcome.error)
            return [outcome]
        ctx.served = Served(0.0)
        hit = ctx.event(
            CacheHitEvent,
            **call.ref.fields(),
            age_seconds=0.0,
            ttl_seconds=policy.ttl_seconds,
            coalesced=True,
        )
        shared = Answered(list(outcome.records), outcome.provenance, total=outcome.total, more=outcome.more)
        return [hit, shared]

    async def _fleet(
        self, key: str, policy: CachePolicy, call: ToolCall, ctx: RunContext
    ) -> tuple[bool, AnswerEntry | None]:
        """``(locked, entry)``: the fleet lock taken, or the answer another worker stored."""
        if await self.run_cache.lock(key, self.lock_seconds, ctx):
            return True, None
        with anyio.move_on_after(self.wait_seconds):
            while not ctx.cache_down:
                await anyio.sleep(self.poll_seconds)
                entry = await self.run_cache.get(key, call, ctx)
                if entry is not None and (
                    policy.ttl_seconds <= 0 or self.run_cache.fresh_age(entry, policy) is not None
                ):
                    return False, entry
                if await self.run_cache.lock(key, self.lock_seconds, ctx):  # the holder gave up: our turn
                    return True, None
        return False, None

    # -- stale -----------------------------------------------------------------------
    async def stale(
        self, request: PlanRequest, exc: BaseException, ctx: RunContext
    ) -> tuple[ToolCall, Plan, CacheStaleEvent] | None:
        """The freshest stale answer for a run that failed as unavailable, or None.

        Only :class:`InvocationUnavailableError` (every route was unavailable or passed over)
        and :class:`NoRouteError` whose every route of the healthy chain cools down qualify.
        """
        if not isinstance(exc, NoRouteError | InvocationUnavailableError):
            return None
        try:
            healthy = self.replan(request)
        except Exception:  # pragma: no cover - planning is pure; nothing to serve then
            return None
        calls = healthy.calls
        if not calls:
            return None
        if isinstance(exc, NoRouteError) and not all(self.cooling(call) for call in calls):
            return None
        best: tuple[ToolCall, AnswerEntry, float, CachePolicy] | None = None
        now = self.cache.now()
        for call in calls:
            policy = self.policies.for_call(request, call)
            if policy is None or policy.stale_if_error_seconds <= 0:
                continue
            entry = await self.run_cache.get(self.key_of(call), call, ctx)
            if entry is None:
                continue
            age = entry.age(now)
            if age < policy.stale_if_error_seconds and (best is None or age < best[2]):
                best = (call, entry, age, policy)
        if best is None:
            return None
        call, entry, age, policy = best
        self.stats.stale += 1
        ctx.records = list(entry.records)
        ctx.total, ctx.more = entry.total, entry.more
        ctx.served = Served(age, stale=True)
        event = ctx.event(
            CacheStaleEvent,
            **call.ref.fields(),
            age_seconds=round(age, 6),
            stale_if_error_seconds=policy.stale_if_error_seconds,
            error=str(exc),
        )
        return call, healthy, event

    def snapshot(self) -> dict[str, Any]:
        """Size, counters and hit rate, for ``inspect()``."""
        stats = self.stats
        return {
            **self.cache.status(),
            "hits": stats.hits,
            "misses": stats.misses,
            "hit_rate": stats.hit_rate,
            "stale": stats.stale,
            "coalesced": stats.coalesced,
            "fleet_waits": stats.fleet_waits,
            "stored": stats.stored,
            "not_stored": stats.not_stored,
            "in_flight": len(self.flights),
        }
