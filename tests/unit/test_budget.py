"""Run budgets: calls, attempts and cost units, fallbacks charged like the primary."""

from __future__ import annotations

import pytest

from schemarouter_integrations import BudgetExceededError, RetryPolicy, RunBudget
from schemarouter_integrations._execution.budget import BudgetMeter
from tests.support.execution import CHAIN, DOWN, collect, fake_router, types

pytestmark = pytest.mark.anyio

TWO_CALLS_THEN_STOP = [
    "run.start",
    "plan.compiled",
    "tool.start",
    "tool.error",
    "route.unavailable",
    "tool.fallback",
    "tool.start",
    "tool.error",
    "route.unavailable",
    "run.error",
]


async def test_max_tool_calls_counts_each_fallback_as_a_call() -> None:
    router, invokers, _ = fake_router(down=DOWN)

    events = await collect(router, CHAIN, budget=RunBudget(max_tool_calls=2))

    assert types(events) == TWO_CALLS_THEN_STOP
    assert events[-1].error_type == "BudgetExceededError"  # type: ignore[attr-defined]
    assert "max_tool_calls=2" in events[-1].error  # type: ignore[attr-defined]
    assert [len(invokers[t].calls) for t in ("mp_python", "oqmd_api")] == [0, 0]


async def test_max_tool_calls_does_not_count_retries() -> None:
    router, _, _ = fake_router(down=("mp_api",), retry=RetryPolicy(max_attempts=3))

    result = await router.invoke(CHAIN, budget=RunBudget(max_tool_calls=2))

    assert result.tool == "mp_optimade"
    assert len(result.attempts) == 4


async def test_max_attempts_counts_retries_and_stops_before_the_next_attempt() -> None:
    router, invokers, _ = fake_router(down=DOWN, retry=RetryPolicy(max_attempts=2))

    events = await collect(router, CHAIN, budget=RunBudget(max_attempts=3))

    assert types(events) == [
        "run.start",
        "plan.compiled",
        "tool.start",
        "tool.retry",
        "tool.error",
        "route.unavailable",
        "tool.fallback",
        "tool.start",
        "tool.error",
        "run.error",
    ]
    assert "max_attempts=3" in events[-1].error  # type: ignore[attr-defined]
    assert len(invokers["mp_api"].calls) == 2
    assert len(invokers["mp_optimade"].calls) == 1
    assert router.cooldowns.cooldown_left("mp_optimade.search") is None  # retries not exhausted


async def test_max_attempts_blocks_a_fallback_before_it_starts() -> None:
    router, invokers, _ = fake_router(down=DOWN)

    events = await collect(router, CHAIN, budget=RunBudget(max_attempts=2))

    assert types(events) == TWO_CALLS_THEN_STOP
    assert invokers["mp_python"].calls == []


async def test_max_cost_units_sums_endpoint_cost_units() -> None:
    router, invokers, _ = fake_router(down=DOWN, cost_units=2.0)

    events = await collect(router, CHAIN, budget=RunBudget(max_cost_units=5.0))

    assert types(events) == TWO_CALLS_THEN_STOP
    assert "max_cost_units=5.0" in events[-1].error  # type: ignore[attr-defined]
    assert invokers["mp_python"].calls == []


async def test_budget_reached_exactly_still_lets_the_run_finish() -> None:
    router, _, _ = fake_router(down=DOWN, cost_units=2.0)

    result = await router.invoke(
        CHAIN, budget=RunBudget(max_tool_calls=4, max_attempts=4, max_cost_units=8.0)
    )

    assert result.tool == "oqmd_api"


async def test_zero_budget_raises_before_anything_runs() -> None:
    router, invokers, _ = fake_router()

    with pytest.raises(BudgetExceededError):
        await router.invoke(CHAIN, budget=RunBudget(max_tool_calls=0))
    assert all(not i.calls for i in invokers.values())


def test_a_refused_charge_counts_nothing() -> None:
    meter = BudgetMeter(RunBudget(max_tool_calls=5, max_cost_units=1.5))
    meter.charge_call("a.search", 1.0)

    with pytest.raises(BudgetExceededError):
        meter.charge_call("b.search", 1.0)

    assert (meter.tool_calls, meter.attempts, meter.cost_units) == (1, 1, 1.0)
