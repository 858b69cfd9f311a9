"""Running compiled chains: the seed's fallback chain, pruning, binding fallback, no route."""

from __future__ import annotations

from contextlib import aclosing

import pytest

from schemarouter_integrations import (
    AllRoutesUnavailableError,
    NoRouteError,
    PlanRequest,
    ToolResult,
)
from schemarouter_integrations.events import (
    RoutePrunedEvent,
    RunEndEvent,
    ToolFallbackEvent,
)
from tests.support.execution import (
    CHAIN,
    DOWN,
    collect,
    fake_router,
    losing_mp_optimade_while_mp_api_runs,
    rebuilt,
    types,
)
from tests.support.seed import mp_optimade

pytestmark = pytest.mark.anyio

SEED_CHAIN_EVENTS = [
    "run.start",
    "plan.compiled",
    "tool.start",
    "tool.error",
    "route.unavailable",
    "tool.fallback",
    "tool.start",
    "tool.error",
    "route.unavailable",
    "tool.fallback",
    "tool.start",
    "tool.error",
    "route.unavailable",
    "tool.fallback",
    "tool.start",
    "tool.end",
    "run.end",
]


async def test_seed_chain_falls_back_to_oqmd_with_the_exact_event_sequence() -> None:
    router, invokers, _ = fake_router(down=DOWN)

    events = await collect(router, CHAIN)

    assert types(events) == SEED_CHAIN_EVENTS
    last = events[-1]
    assert isinstance(last, RunEndEvent) and isinstance(last.result, ToolResult)
    assert (last.result.tool, last.result.endpoint) == ("oqmd_api", "search")
    assert last.result.route == [
        "mp_api.search",
        "mp_optimade.search",
        "mp_python.search",
        "oqmd_api.search",
    ]
    assert last.result.records == [{"band_gap": 0.62}]
    assert [len(i.calls) for i in invokers.values()] == [1, 1, 1, 1]


async def test_invoke_returns_the_result_of_the_route_that_succeeded() -> None:
    router, _, _ = fake_router(down=DOWN)

    result = await router.invoke(CHAIN)

    assert (result.tool, result.endpoint, result.provider, result.access_mode) == (
        "oqmd_api",
        "search",
        "oqmd",
        "openapi",
    )
    assert [(a.access_path, a.ok) for a in result.attempts] == [
        ("mp_api.search", False),
        ("mp_optimade.search", False),
        ("mp_python.search", False),
        ("oqmd_api.search", True),
    ]
    assert result.fallbacks == 3
    assert result.plan.primary is not None and result.plan.primary.tool == "mp_api"


async def test_fallback_events_carry_source_target_provider_access_mode_and_scope() -> None:
    router, _, _ = fake_router(down=DOWN)

    events = await collect(router, CHAIN)

    fallbacks = [e for e in events if isinstance(e, ToolFallbackEvent)]
    summary = [
        (e.from_tool, e.to_tool, e.from_access_mode, e.to_access_mode, e.scope, e.same_provider)
        for e in fallbacks
    ]
    assert summary == [
        ("mp_api", "mp_optimade", "openapi", "optimade", "same_provider", True),
        ("mp_optimade", "mp_python", "optimade", "python", "same_provider", True),
        ("mp_python", "oqmd_api", "python", "openapi", "cross_provider", False),
    ]
    last = fallbacks[-1]
    assert (last.from_provider, last.to_provider, last.to_endpoint, last.reason) == (
        "materials_project",
        "oqmd",
        "search",
        "unavailable",
    )


async def test_exhausted_routes_go_into_cooldown_and_the_next_plan_starts_at_the_survivor() -> None:
    router, _, _ = fake_router(down=DOWN)

    await router.invoke(CHAIN)

    for tool in DOWN:
        assert router.cooldowns.cooldown_left(f"{tool}.search") == 30.0
    assert router.cooldowns.cooldown_left("oqmd_api.search") is None
    plan = router.plan_executable(CHAIN)
    assert plan.primary is not None and plan.primary.tool == "oqmd_api"


async def test_every_route_unavailable_raises_with_each_attempt() -> None:
    router, _, _ = fake_router(down=(*DOWN, "oqmd_api"))

    with pytest.raises(AllRoutesUnavailableError) as caught:
        await router.invoke(CHAIN)

    assert [a.access_path for a in caught.value.attempts] == [
        "mp_api.search",
        "mp_optimade.search",
        "mp_python.search",
        "oqmd_api.search",
    ]
    assert all("is down" in str(a.error) for a in caught.value.attempts)


async def test_compiled_plan_runs_as_compiled_without_inventing_routes() -> None:
    router, invokers, _ = fake_router(down=("mp_api",))
    plan = router.plan_executable(PlanRequest(query="Si band gap", preferred_tools=("mp_api",)))
    assert plan.fallbacks == []

    with pytest.raises(AllRoutesUnavailableError):
        await router.invoke(plan)

    assert [len(invokers[t].calls) for t in ("mp_optimade", "mp_python", "oqmd_api")] == [0, 0, 0]


async def test_compiled_plan_still_tries_its_primary_after_the_primary_cooled_down() -> None:
    router, invokers, _ = fake_router()
    plan = router.plan_executable(CHAIN)
    router.mark_access_unavailable("mp_api", "search", seconds=60)

    result = await router.invoke(plan)

    assert result.tool == "mp_api"
    assert len(invokers["mp_api"].calls) == 1


async def test_success_on_a_cooling_path_reopens_it_with_route_available() -> None:
    router, _, _ = fake_router()
    plan = router.plan_executable(CHAIN)
    router.mark_access_unavailable("mp_api", "search", seconds=60)

    events = await collect(router, plan)

    assert "route.available" in types(events)
    assert router.cooldowns.cooldown_left("mp_api.search") is None


async def test_request_is_planned_executable_so_an_unbound_tool_is_not_the_primary() -> None:
    router, _, _ = fake_router()
    router.unbind("mp_api")

    events = await collect(router, CHAIN)

    assert types(events)[:3] == ["run.start", "plan.compiled", "tool.start"]
    assert events[1].primary == "mp_optimade.search"  # type: ignore[attr-defined]
    assert "tool.fallback" not in types(events)


async def test_unbound_primary_moves_to_the_next_bound_alternative() -> None:
    router, _, _ = fake_router()
    plan = router.plan(CHAIN)
    router.unbind("mp_api")

    events = await collect(router, plan)

    assert types(events) == [
        "run.start",
        "plan.compiled",
        "tool.fallback",
        "tool.start",
        "tool.end",
        "run.end",
    ]
    fallback = events[2]
    assert isinstance(fallback, ToolFallbackEvent)
    assert (fallback.from_tool, fallback.to_tool, fallback.reason) == (
        "mp_api",
        "mp_optimade",
        "binding_unavailable",
    )
    assert isinstance(events[-1], RunEndEvent) and events[-1].result is not None
    assert events[-1].result.route == ["mp_optimade.search"]


async def test_unbound_primary_without_alternative_raises_no_route() -> None:
    router, _, _ = fake_router()
    plan = router.plan(PlanRequest(query="Si band gap", preferred_tools=("mp_api",)))
    router.unbind("mp_api")

    with pytest.raises(NoRouteError, match=r"mp_api\.search has no invoker bound"):
        await router.invoke(plan)


@pytest.mark.parametrize(
    ("breakage", "reason"),
    [
        ("unbound", "binding is unbound"),
        ("stale", "binding is stale"),
        ("drifted", "contract of 'mp_optimade' changed"),
    ],
)
async def test_invalid_optional_fallback_is_pruned_and_the_primary_still_runs(
    breakage: str, reason: str
) -> None:
    router, invokers, _ = fake_router()
    if breakage == "stale":  # a new contract; the invoker stays bound to the old one
        router.register(rebuilt(mp_optimade(), description="v2"))
    plan = router.plan(CHAIN)
    if breakage == "unbound":
        router.unbind("mp_optimade")
    elif breakage == "drifted":  # a new contract, bound again: the plan's fingerprints are old
        router.register(rebuilt(mp_optimade(), description="v2"), invokers["mp_optimade"])

    events = await collect(router, plan)

    pruned = [e for e in events if isinstance(e, RoutePrunedEvent)]
    assert [p.access_path for p in pruned] == ["mp_optimade.search"]
    assert reason in pruned[0].reason
    assert types(events)[:4] == ["run.start", "plan.compiled", "route.pruned", "tool.start"]
    assert events[-1].type == "run.end"
    assert len(invokers["mp_api"].calls) == 1


async def test_pruned_fallback_is_skipped_when_the_primary_fails() -> None:
    router, invokers, _ = fake_router(down=("mp_api",))
    plan = router.plan(CHAIN)
    router.unbind("mp_optimade")

    result = await router.invoke(plan)

    assert result.route == ["mp_api.search", "mp_python.search"]
    assert invokers["mp_optimade"].calls == []


async def test_a_route_unbound_mid_run_is_pruned_and_the_fallback_leaves_the_failed_route() -> None:
    router, invokers = losing_mp_optimade_while_mp_api_runs()

    events = await collect(router, CHAIN)

    assert types(events) == [
        "run.start",
        "plan.compiled",
        "tool.start",
        "tool.error",
        "route.unavailable",
        "route.pruned",
        "tool.fallback",
        "tool.start",
        "tool.end",
        "run.end",
    ]
    pruned, fallback = events[5], events[6]
    assert isinstance(pruned, RoutePrunedEvent) and pruned.access_path == "mp_optimade.search"
    assert "binding is unbound" in pruned.reason
    assert isinstance(fallback, ToolFallbackEvent)
    assert (fallback.from_tool, fallback.to_tool, fallback.reason) == ("mp_api", "mp_python", "unavailable")
    assert invokers["mp_optimade"].calls == []


async def test_an_unbound_primary_hands_over_past_a_route_that_lost_its_binding_mid_run() -> None:
    router, _, _ = fake_router()
    plan = router.plan(CHAIN)
    router.unbind("mp_api")  # the primary: moved past with binding_unavailable
    router.unbind("oqmd_api")  # pruned in preflight: its event is the moment to act mid-run

    events = []
    async with aclosing(router.stream(plan)) as stream:
        async for event in stream:
            events.append(event)
            if isinstance(event, RoutePrunedEvent) and event.tool == "oqmd_api":
                router.unbind("mp_optimade")

    assert [e.access_path for e in events if isinstance(e, RoutePrunedEvent)] == [
        "oqmd_api.search",
        "mp_optimade.search",
    ]
    (fallback,) = [e for e in events if isinstance(e, ToolFallbackEvent)]
    assert (fallback.from_tool, fallback.to_tool, fallback.reason) == (
        "mp_api",
        "mp_python",
        "binding_unavailable",
    )
    assert isinstance(events[-1], RunEndEvent) and events[-1].result is not None
    assert events[-1].result.route == ["mp_python.search"]


async def test_no_eligible_primary_names_the_paths_in_cooldown_and_the_first_reopening() -> None:
    router, invokers, _ = fake_router()
    for tool, seconds in (("mp_api", 40), ("mp_optimade", 30), ("mp_python", 10), ("oqmd_api", 20)):
        router.mark_access_unavailable(tool, "search", seconds=seconds)

    with pytest.raises(NoRouteError) as caught:
        await router.invoke(CHAIN)

    error = caught.value
    assert error.cooling_down == (
        "mp_api.search",
        "mp_optimade.search",
        "mp_python.search",
        "oqmd_api.search",
    )
    assert error.reopens_in_seconds == 10
    assert "mp_python.search reopens in 10.0s" in str(error)
    assert all(not i.calls for i in invokers.values())


async def test_no_route_ends_the_stream_with_run_error() -> None:
    router, _, _ = fake_router()
    for tool in ("mp_api", "mp_optimade", "mp_python", "oqmd_api"):
        router.mark_access_unavailable(tool, "search")

    events = await collect(router, CHAIN)

    assert types(events) == ["run.start", "plan.compiled", "run.error"]
    assert events[-1].error_type == "NoRouteError"  # type: ignore[attr-defined]


async def test_binding_fallback_counts_as_a_fallback_of_the_result() -> None:
    router, _, _ = fake_router()
    plan = router.plan(CHAIN)
    router.unbind("mp_api")

    result = await router.invoke(plan)

    assert (result.route, result.fallbacks) == (["mp_optimade.search"], 1)
