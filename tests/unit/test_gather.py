"""``router.gather``: every compatible route at once, through the same chain runner as ``invoke``."""

from __future__ import annotations

import pytest

from schemarouter_integrations import (
    AllRoutesUnavailableError,
    BudgetExceededError,
    InvocationUnavailableError,
    PlanRequest,
    RetryPolicy,
    RunBudget,
    SchemaRouter,
)
from schemarouter_integrations._execution.gather import MAX_GATHER_ROUTES, gather_request
from tests.support.execution import fake_router
from tests.support.seed import FakeInvoker

pytestmark = pytest.mark.anyio

SI = PlanRequest(query="Si band gap", arguments={"formula": "Si"})


async def test_every_compatible_route_answers_and_records_are_tagged() -> None:
    router, _, _ = fake_router()
    plan = router.plan(gather_request(SI, None))

    gathered = await router.gather(SI)

    assert [r.access_path for r in gathered.results] == [c.access_path for c in plan.calls]
    assert len(gathered.results) >= 2 and gathered.failures == {}
    assert all({"provider", "tool"} <= set(record) for record in gathered.records)
    assert {r["tool"] for r in gathered.records} == {r.tool for r in gathered.results}


async def test_a_failing_route_is_a_failure_with_its_own_error_and_is_cooled_down() -> None:
    router, _, _ = fake_router(down=("mp_api",))

    gathered = await router.gather(SI)

    assert "mp_api.search" in gathered.failures
    assert isinstance(gathered.failures["mp_api.search"], InvocationUnavailableError)
    assert "mp_api" not in {r.tool for r in gathered.results}
    assert "mp_api.search" in router.inspect().execution.unavailable_access_paths
    types = [e.type for e in gathered.events]
    assert types[0] == "run.start" and types[-1] == "run.end" and "tool.fallback" not in types


async def test_every_route_failing_raises_all_routes_unavailable() -> None:
    router, _, _ = fake_router(down=("mp_api", "mp_optimade", "mp_python", "oqmd_api"))
    seen: list[str] = []

    with pytest.raises(AllRoutesUnavailableError) as raised:
        await router.gather(SI, on_event=lambda e: seen.append(e.type))

    assert raised.value.attempts and seen[-1] == "run.error"


async def test_the_whole_gather_is_one_run_budget_charged_in_plan_order() -> None:
    router, _, _ = fake_router()
    plan = router.plan(gather_request(SI, None))
    assert len(plan.calls) >= 3

    gathered = await router.gather(SI, budget=RunBudget(max_tool_calls=2))

    assert [r.access_path for r in gathered.results] == [c.access_path for c in plan.calls[:2]]
    assert all(isinstance(e, BudgetExceededError) for e in gathered.failures.values())
    assert list(gathered.failures) == [c.access_path for c in plan.calls[2:]]


async def test_max_routes_bounds_the_routes() -> None:
    router, _, _ = fake_router()
    gathered = await router.gather(SI, max_routes=1)
    assert len(gathered.results) == 1 and gathered.failures == {}


def test_a_gather_is_cross_provider_unless_the_request_says_same_provider() -> None:
    assert gather_request(SI, None).fallback_scope == "cross_provider"
    assert gather_request(SI, None).max_fallbacks == MAX_GATHER_ROUTES - 1
    same = SI.model_copy(update={"fallback_scope": "same_provider"})
    assert gather_request(same, 3).fallback_scope == "same_provider"
    assert gather_request(same, 3).max_fallbacks == 2


# A gather never pays a timeout twice -------------------------------------------------------

RETRYING = RetryPolicy(max_attempts=4, backoff_seconds=0.1, max_backoff_seconds=5.0)
LIMITED = InvocationUnavailableError("429 Too Many Requests", retry_after=1.0, status_code=429)


def _failing(
    router: SchemaRouter, tool: str, error: InvocationUnavailableError, times: int = 10**9
) -> FakeInvoker:
    invoker = FakeInvoker(tool, error, fail_times=times)
    router.bind(tool, invoker)
    return invoker


async def test_a_timeout_in_a_gather_is_not_retried_its_origin_cools_and_it_is_reported() -> None:
    router, _, clock = fake_router(retry=RETRYING)
    timeout = InvocationUnavailableError("GET /search timed out (ReadTimeout)", transport=True)
    hanging = _failing(router, "mp_api", timeout)

    gathered = await router.gather(SI)

    assert len(hanging.calls) == 1 and clock.sleeps == []
    assert gathered.failures["mp_api.search"] is timeout
    assert "mp_api.search" in router.inspect().execution.unavailable_access_paths
    assert "mp_api" not in {r.tool for r in gathered.results} and len(gathered.results) >= 2


async def test_invoke_still_retries_a_timeout_as_its_retry_policy_says() -> None:
    router, _, _ = fake_router(retry=RETRYING)
    hanging = _failing(router, "mp_api", InvocationUnavailableError("timed out", transport=True), times=1)

    result = await router.invoke(SI.model_copy(update={"preferred_tools": ("mp_api",)}))

    assert result.tool == "mp_api" and len(hanging.calls) == 2


async def test_a_429_in_a_gather_is_retried_once_after_its_retry_after() -> None:
    router, _, clock = fake_router(retry=RETRYING)
    limited = _failing(router, "oqmd_api", LIMITED, 1)

    gathered = await router.gather(SI)

    assert len(limited.calls) == 2 and clock.sleeps == [1.0]
    assert "oqmd_api" in {r.tool for r in gathered.results} and gathered.failures == {}


async def test_a_429_refused_twice_in_a_gather_is_not_tried_a_third_time() -> None:
    router, _, clock = fake_router(retry=RETRYING)
    limited = _failing(router, "oqmd_api", LIMITED)

    gathered = await router.gather(SI)

    assert len(limited.calls) == 2 and clock.sleeps == [1.0]
    assert isinstance(gathered.failures["oqmd_api.search"], InvocationUnavailableError)
    assert "oqmd_api.search" in router.inspect().execution.unavailable_access_paths


async def test_a_retry_after_longer_than_the_policy_allows_is_not_waited_for_in_a_gather() -> None:
    router, _, clock = fake_router(retry=RETRYING)
    limited = _failing(router, "oqmd_api", InvocationUnavailableError("429", retry_after=60.0))

    gathered = await router.gather(SI)

    assert len(limited.calls) == 1 and clock.sleeps == []
    assert "oqmd_api.search" in gathered.failures


async def test_a_429_retry_that_does_not_fit_the_budget_is_not_sent() -> None:
    router, _, clock = fake_router(retry=RETRYING)
    limited = _failing(router, "oqmd_api", LIMITED)
    plan = router.plan(gather_request(SI, None))
    budget = RunBudget(max_attempts=len(plan.calls))  # one attempt per route, no retry

    gathered = await router.gather(SI, budget=budget)

    assert len(limited.calls) == 1 and clock.sleeps == []
    assert isinstance(gathered.failures["oqmd_api.search"], BudgetExceededError)
    assert len(gathered.results) == len(plan.calls) - 1
