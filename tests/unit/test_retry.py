"""Retries: exponential backoff with full jitter, capped; Retry-After; only for unavailability."""

from __future__ import annotations

import random

import pytest

from schemarouter_integrations import InvocationUnavailableError, RetryPolicy
from schemarouter_integrations._execution.retry import backoff_seconds
from schemarouter_integrations.events import RouteUnavailableEvent, ToolRetryEvent
from tests.support.execution import CHAIN, collect, fake_router, types

pytestmark = pytest.mark.anyio


def test_backoff_doubles_and_is_capped_without_jitter() -> None:
    policy = RetryPolicy(max_attempts=6, backoff_seconds=1.0, max_backoff_seconds=5.0, jitter=False)

    assert [backoff_seconds(policy, n) for n in range(1, 6)] == [1.0, 2.0, 4.0, 5.0, 5.0]


def test_full_jitter_draws_uniformly_below_the_capped_ceiling() -> None:
    policy = RetryPolicy(max_attempts=5, backoff_seconds=1.0, max_backoff_seconds=3.0)
    rng, mirror = random.Random(7), random.Random(7)

    delays = [backoff_seconds(policy, n, rng=rng) for n in (1, 2, 3, 4)]

    assert delays == [mirror.uniform(0.0, ceiling) for ceiling in (1.0, 2.0, 3.0, 3.0)]
    assert all(0.0 <= d <= c for d, c in zip(delays, (1.0, 2.0, 3.0, 3.0), strict=True))


def test_retry_after_raises_the_wait_up_to_the_cap() -> None:
    policy = RetryPolicy(max_attempts=3, backoff_seconds=1.0, max_backoff_seconds=30.0, jitter=False)

    assert backoff_seconds(policy, 1, retry_after=7.0) == 7.0
    assert backoff_seconds(policy, 1, retry_after=120.0) == 30.0
    assert backoff_seconds(policy, 3, retry_after=0.5) == 4.0


async def test_retry_delays_follow_the_seeded_rng_and_are_slept() -> None:
    router, invokers, clock = fake_router(
        retry=RetryPolicy(max_attempts=4, backoff_seconds=1.0, max_backoff_seconds=3.0)
    )
    invokers["mp_api"].fail_with = InvocationUnavailableError("503")
    invokers["mp_api"].fail_times = 3
    rng = random.Random(0)  # the router's rng is random.Random(0)
    expected = [rng.uniform(0.0, 1.0), rng.uniform(0.0, 2.0), rng.uniform(0.0, 3.0)]

    events = await collect(router, CHAIN)

    retries = [e for e in events if isinstance(e, ToolRetryEvent)]
    assert [r.delay_seconds for r in retries] == expected
    assert [r.attempt for r in retries] == [2, 3, 4]
    assert clock.sleeps == expected


async def test_transient_failure_recovers_on_the_same_route_without_fallback() -> None:
    router, invokers, _ = fake_router(retry=RetryPolicy(max_attempts=3, backoff_seconds=0.5))
    invokers["mp_api"].fail_with = InvocationUnavailableError("timeout")
    invokers["mp_api"].fail_times = 2

    result = await router.invoke(CHAIN)

    assert result.tool == "mp_api"
    assert [a.ok for a in result.attempts] == [False, False, True]
    assert types(result.events).count("tool.retry") == 2
    assert "tool.fallback" not in types(result.events)
    assert router.cooldowns.cooldown_left("mp_api.search") is None


async def test_retry_after_hint_on_the_error_is_honoured() -> None:
    router, invokers, clock = fake_router(
        retry=RetryPolicy(max_attempts=2, backoff_seconds=0.1, max_backoff_seconds=60.0)
    )
    invokers["mp_api"].fail_with = InvocationUnavailableError("429", retry_after=12.0, status_code=429)
    invokers["mp_api"].fail_times = 1

    await router.invoke(CHAIN)

    assert clock.sleeps == [12.0]


async def test_retry_after_beyond_max_backoff_skips_the_retry_and_cools_down() -> None:
    router, invokers, clock = fake_router(
        retry=RetryPolicy(max_attempts=2, backoff_seconds=0.1, max_backoff_seconds=2.0)
    )
    invokers["mp_api"].fail_with = InvocationUnavailableError("429", retry_after=12.0)
    invokers["mp_api"].fail_times = 1

    result = await router.invoke(CHAIN)

    assert clock.sleeps == []
    assert len(invokers["mp_api"].calls) == 1
    assert result.tool == "mp_optimade"
    assert router.inspect().execution.cooldowns["mp_api.search"] >= 12.0


async def test_retry_after_within_max_backoff_is_waited_for() -> None:
    router, invokers, clock = fake_router(
        retry=RetryPolicy(max_attempts=2, backoff_seconds=0.1, max_backoff_seconds=20.0)
    )
    invokers["mp_api"].fail_with = InvocationUnavailableError("429", retry_after=12.0)
    invokers["mp_api"].fail_times = 1

    result = await router.invoke(CHAIN)

    assert clock.sleeps == [12.0]
    assert result.tool == "mp_api"


async def test_retry_after_hint_lengthens_the_cooldown_once_retries_are_exhausted() -> None:
    router, invokers, _ = fake_router()
    invokers["mp_api"].fail_with = InvocationUnavailableError("429", retry_after=120.0)

    events = await collect(router, CHAIN)

    marks = [e for e in events if isinstance(e, RouteUnavailableEvent)]
    assert [(m.access_path, m.cooldown_seconds) for m in marks] == [("mp_api.search", 120.0)]


async def test_exhausted_retries_emit_error_then_unavailable_then_fallback() -> None:
    router, invokers, _ = fake_router(down=("mp_api",), retry=RetryPolicy(max_attempts=2))

    events = await collect(router, CHAIN)

    assert types(events) == [
        "run.start",
        "plan.compiled",
        "tool.start",
        "tool.retry",
        "tool.error",
        "route.unavailable",
        "tool.fallback",
        "tool.start",
        "tool.end",
        "run.end",
    ]
    assert len(invokers["mp_api"].calls) == 2
    assert events[4].attempts == 2  # type: ignore[attr-defined]
