"""The public test kit's in-process routes: each scripted fault does what its name says."""

from __future__ import annotations

import subprocess
import sys

import pytest

from schemarouter_integrations import (
    AllRoutesUnavailableError,
    InvocationUnavailableError,
    PlanRequest,
    SchemaRouter,
)
from schemarouter_integrations.testing import (
    MATERIALS,
    Down,
    FailTimes,
    Hang,
    RetryAfter,
    Slow,
    faulty,
    materials_router,
    materials_search,
    oqmd_search,
)

pytestmark = pytest.mark.anyio

SI = PlanRequest(
    query="band gap of Si",
    arguments={"formula": "Si"},
    preferred_tools=["mp_api"],
    fallback_scope="same_provider",
)


def two_routes(primary_fault: object, **options: object) -> SchemaRouter:
    router = SchemaRouter()
    router.add_callable(
        faulty(materials_search, primary_fault),  # type: ignore[arg-type]
        name="mp_api",
        provider="materials_project",
        endpoint="search",
        read_only=True,
        **options,  # type: ignore[arg-type]
    )
    router.add_callable(
        materials_search, name="mp_python", provider="materials_project", endpoint="search", read_only=True
    )
    return router


async def test_down_fails_every_call_as_a_transport_outage() -> None:
    route = faulty(materials_search, Down())
    for _ in range(3):
        with pytest.raises(InvocationUnavailableError) as caught:
            await route(formula="Si")
        assert caught.value.transport
    assert route.calls == 3


async def test_a_down_primary_falls_back_and_cools_down() -> None:
    router = two_routes(Down())
    result = await router.invoke(SI)
    assert result.route == ["mp_api.search", "mp_python.search"]
    assert result.records == [{"band_gap": 0.61, "formula": "Si", "material_id": "mp-149"}]
    assert "mp_api.search" in router.inspect().execution.cooldowns


async def test_fail_times_fails_the_first_calls_then_answers() -> None:
    route = faulty(materials_search, FailTimes(2))
    for _ in range(2):
        with pytest.raises(InvocationUnavailableError) as caught:
            await route(formula="Si")
        assert caught.value.status_code == 503
    assert await route(formula="Si") == [MATERIALS[0]]
    assert route.calls == 3


async def test_fail_times_is_healed_by_a_retry() -> None:
    from schemarouter_integrations import RetryPolicy

    router = two_routes(FailTimes(1), retry=RetryPolicy(max_attempts=2, backoff_seconds=0, jitter=False))
    result = await router.invoke(SI)
    assert result.route == ["mp_api.search"]
    assert len(result.attempts) == 2


async def test_retry_after_carries_the_hint() -> None:
    route = faulty(materials_search, RetryAfter(7, times=1))
    with pytest.raises(InvocationUnavailableError) as caught:
        await route(formula="Si")
    assert (caught.value.retry_after, caught.value.status_code) == (7.0, 503)
    assert await route(formula="Si") == [MATERIALS[0]]


async def test_retry_after_cools_the_route_for_at_least_the_hint() -> None:
    router = two_routes(RetryAfter(120))
    result = await router.invoke(SI)
    assert result.route == ["mp_api.search", "mp_python.search"]
    assert router.inspect().execution.cooldowns["mp_api.search"] > 60


async def test_a_hanging_route_ends_at_its_timeout_as_unavailable() -> None:
    router = two_routes(Hang(), timeout_seconds=0.05)
    result = await router.invoke(SI)
    assert result.route == ["mp_api.search", "mp_python.search"]


async def test_slow_answers_after_its_delay() -> None:
    route = faulty(materials_search, Slow(0.01))
    assert await route(formula="GaAs") == [MATERIALS[1]]


async def test_a_sync_function_runs_behind_a_fault() -> None:
    def lookup(formula: str) -> list[dict[str, object]]:
        return [{"formula": formula, "band_gap": 1.0}]

    route = faulty(lookup, FailTimes(0))
    assert await route(formula="X") == [{"formula": "X", "band_gap": 1.0}]


def test_a_faulty_route_keeps_the_contract_of_its_function() -> None:
    plain, wrapped = SchemaRouter(), SchemaRouter()
    plain.add_callable(materials_search, name="mp", read_only=True)
    wrapped.add_callable(faulty(materials_search, Down()), name="mp", read_only=True)
    assert wrapped.tools["mp"].fingerprint == plain.tools["mp"].fingerprint


@pytest.mark.parametrize(
    "make",
    [lambda: FailTimes(-1), lambda: RetryAfter(float("nan")), lambda: Slow(-1), lambda: Hang(float("inf"))],
)
def test_bad_fault_settings_are_refused(make: object) -> None:
    with pytest.raises(ValueError):
        make()  # type: ignore[operator]


def test_faulty_needs_a_fault() -> None:
    with pytest.raises(TypeError, match="needs a Fault"):
        faulty(materials_search, "down")  # type: ignore[arg-type]


async def test_materials_router_falls_back_from_the_down_rest_api() -> None:
    router = materials_router()
    result = await router.invoke(SI)
    assert result.route == ["mp_api.search", "mp_python.search"]


async def test_materials_router_with_every_route_down_raises() -> None:
    router = materials_router(down=("mp_api", "mp_python", "oqmd"))
    request = SI.model_copy(update={"fallback_scope": "cross_provider"})
    with pytest.raises(AllRoutesUnavailableError):
        await router.invoke(request)


def test_oqmd_answers_told_apart_from_the_materials_project() -> None:
    assert oqmd_search("Si")[0]["band_gap"] != materials_search("Si")[0]["band_gap"]
    assert oqmd_search("Si")[0]["material_id"].startswith("oqmd-")


def test_the_router_never_imports_the_test_kit() -> None:
    code = "import sys, schemarouter_integrations; print('schemarouter_integrations.testing' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
