"""Rate limits kept: a route at its limit waits for its turn, or is passed over (no cooldown)."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import (
    AllRoutesUnavailableError,
    CachePolicy,
    InvocationUnavailableError,
    MemoryAnswerCache,
    PlanRequest,
    RateLimit,
    RetryPolicy,
    SchemaRouter,
)
from schemarouter_integrations.errors import ConfigurationError
from schemarouter_integrations.stores import MemoryRateLimiter
from schemarouter_integrations.stores._ratelimit import gcra_reserve
from tests.support.fakes import FakeClock

pytestmark = pytest.mark.anyio
FIELDS = ["band_gap", "formula"]


def counting(gap: float) -> Any:
    calls: list[str] = []

    async def search(formula: str) -> list[dict[str, Any]]:
        calls.append(formula)
        return [{"formula": formula, "band_gap": gap}]

    search.calls = calls  # type: ignore[attr-defined]
    return search


def ask(**options: Any) -> PlanRequest:
    options.setdefault("fallback_scope", "cross_provider")
    return PlanRequest(query="band gap", arguments={"formula": "Si"}, **options)


def test_gcra_lets_a_burst_through_then_spaces_calls() -> None:
    tat, waits = None, []
    for _ in range(5):
        wait, tat = gcra_reserve(tat, 0.0, per_second=2.0, burst=2.0, max_wait=10.0)
        waits.append(wait)
    assert waits == [0.0, 0.0, 0.5, 1.0, 1.5]


def test_gcra_reserves_nothing_past_the_max_wait() -> None:
    tat = None
    for _ in range(2):
        _, tat = gcra_reserve(tat, 0.0, per_second=1.0, burst=2.0, max_wait=0.5)
    assert gcra_reserve(tat, 0.0, per_second=1.0, burst=2.0, max_wait=0.5) == (None, None)


def test_burst_defaults_to_one_second_of_calls() -> None:
    assert RateLimit(20).capacity == 20
    assert RateLimit(0.5).capacity == 1
    assert RateLimit(20, burst=5).capacity == 5


def test_a_rate_limit_of_the_wrong_kind_is_refused() -> None:
    router = SchemaRouter()
    with pytest.raises(ConfigurationError):
        router.add_callable(counting(1.0), name="mp", read_only=True, fields=FIELDS, rate_limit=20)  # type: ignore[arg-type]


async def test_a_call_at_the_limit_waits_for_its_turn() -> None:
    clock = FakeClock()
    router = SchemaRouter(clock=clock, sleep=clock.sleep, rate_limiter=MemoryRateLimiter(clock))
    fn = counting(1.1)
    router.add_callable(
        fn, name="mp", endpoint="search", read_only=True, fields=FIELDS, rate_limit=RateLimit(2)
    )
    for _ in range(4):
        await router.invoke(ask())
    assert len(fn.calls) == 4
    assert clock.sleeps == [0.5, 0.5]  # two in the burst, then one every half second
    limits = router.inspect().rate_limits["limits"]["route:mp"]
    assert (limits["admitted"], limits["waited"], limits["passed_over"]) == (4, 2, 0)


async def test_a_route_with_no_turn_in_time_is_passed_over_without_cooldown() -> None:
    clock = FakeClock()
    router = SchemaRouter(clock=clock, sleep=clock.sleep, rate_limiter=MemoryRateLimiter(clock))
    mp, oqmd = counting(1.1), counting(0.6)
    limit = RateLimit(1, max_wait_seconds=0.1)
    router.add_callable(
        mp, name="mp", endpoint="search", provider="mp", read_only=True, fields=FIELDS, rate_limit=limit
    )
    router.add_callable(oqmd, name="oqmd", endpoint="search", provider="oqmd", read_only=True, fields=FIELDS)
    await router.invoke(ask(preferred_tools=["mp"]))
    result = await router.invoke(ask(preferred_tools=["mp"]))
    assert result.tool == "oqmd"
    fallback = next(e for e in result.events if e.type == "tool.fallback")
    assert fallback.reason == "rate_limited"
    assert router.inspect().execution.unavailable_access_paths == []
    assert (len(mp.calls), len(oqmd.calls)) == (1, 1)


async def test_every_route_passed_over_raises_all_routes_unavailable() -> None:
    clock = FakeClock()
    router = SchemaRouter(clock=clock, sleep=clock.sleep, rate_limiter=MemoryRateLimiter(clock))
    limit = RateLimit(1, max_wait_seconds=0.0)
    router.add_callable(
        counting(1.1), name="mp", endpoint="search", read_only=True, fields=FIELDS, rate_limit=limit
    )
    await router.invoke(ask())
    with pytest.raises(AllRoutesUnavailableError) as caught:
        await router.invoke(ask())
    assert [a.error_type for a in caught.value.attempts] == ["RateLimitedError"]


async def test_a_stale_answer_may_serve_a_run_passed_over_by_its_limit() -> None:
    clock = FakeClock()
    router = SchemaRouter(
        clock=clock,
        sleep=clock.sleep,
        rate_limiter=MemoryRateLimiter(clock),
        answer_cache=MemoryAnswerCache(),
    )
    limit = RateLimit(1, max_wait_seconds=0.0)
    router.add_callable(
        counting(1.1), name="mp", endpoint="search", read_only=True, fields=FIELDS, rate_limit=limit
    )
    policy = CachePolicy(ttl_seconds=0, stale_if_error_seconds=60)
    await router.invoke(ask(cache=policy))
    result = await router.invoke(ask(cache=policy))
    assert result.stale and result.records == [{"formula": "Si", "band_gap": 1.1}]


async def test_a_provider_limit_is_shared_by_its_routes() -> None:
    clock = FakeClock()
    router = SchemaRouter(clock=clock, sleep=clock.sleep, rate_limiter=MemoryRateLimiter(clock))
    for name in ("mp_rest", "mp_python"):
        router.add_callable(
            counting(1.1), name=name, endpoint="search", provider="mp", read_only=True, fields=FIELDS
        )
    router.set_rate_limit("mp", RateLimit(1, max_wait_seconds=5), provider=True)
    await router.invoke(ask(preferred_tools=["mp_rest"]))
    await router.invoke(ask(preferred_tools=["mp_python"]))
    assert clock.sleeps == [1.0]


async def test_a_retry_held_back_by_the_limit_keeps_the_failure_it_retried() -> None:
    clock = FakeClock()
    router = SchemaRouter(clock=clock, sleep=clock.sleep, rate_limiter=MemoryRateLimiter(clock))

    async def failing(formula: str) -> list[dict[str, Any]]:
        raise InvocationUnavailableError("503 from the upstream", status_code=503)

    router.add_callable(
        failing,
        name="mp",
        endpoint="search",
        provider="mp",
        read_only=True,
        fields=FIELDS,
        rate_limit=RateLimit(1, max_wait_seconds=0.0),
        retry=RetryPolicy(max_attempts=2, backoff_seconds=0.0, jitter=False),
    )
    oqmd = counting(0.6)
    router.add_callable(oqmd, name="oqmd", endpoint="search", provider="oqmd", read_only=True, fields=FIELDS)
    result = await router.invoke(ask(preferred_tools=["mp"]))
    assert result.tool == "oqmd"
    fallback = next(e for e in result.events if e.type == "tool.fallback")
    assert fallback.reason != "rate_limited"  # the 503 decided it, not the held-back retry
    assert [e.type for e in result.events].count("route.unavailable") == 1
    assert "mp.search" in router.inspect().execution.unavailable_access_paths
