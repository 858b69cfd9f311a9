"""``router.gather``: every compatible route at once, through the same chain runner as ``invoke``."""

from __future__ import annotations

import pytest

from schemarouter_integrations import (
    AllRoutesUnavailableError,
    BudgetExceededError,
    InvocationUnavailableError,
    PlanRequest,
    RunBudget,
)
from schemarouter_integrations._execution.gather import MAX_GATHER_ROUTES, gather_request
from tests.support.execution import fake_router

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
