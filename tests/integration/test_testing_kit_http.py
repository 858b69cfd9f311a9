"""The test kit's loopback MaterialsApi over real HTTP: each fault reaches the router as it would
from a real server."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from schemarouter_integrations import PlanRequest, RetryPolicy, SchemaRouter
from schemarouter_integrations.testing import (
    Down,
    FailTimes,
    Hang,
    MaterialsApi,
    RetryAfter,
    Slow,
    materials_search,
)

pytestmark = [pytest.mark.anyio, pytest.mark.integration]

SI = PlanRequest(
    query="band gap of Si",
    arguments={"formula": "Si"},
    preferred_tools=["mp_api"],
    fallback_scope="same_provider",
)


@pytest.fixture
def api() -> Iterator[MaterialsApi]:
    with MaterialsApi() as server:
        yield server


async def router_on(api: MaterialsApi, **options: object) -> SchemaRouter:
    router = SchemaRouter()
    await router.add_url(
        api.openapi_url,
        kind="openapi",
        name="mp_api",
        provider="materials_project",
        **options,  # type: ignore[arg-type]
    )
    router.add_callable(
        materials_search, name="mp_python", provider="materials_project", endpoint="search", read_only=True
    )
    return router


async def test_a_healthy_api_answers_with_the_projected_fields(api: MaterialsApi) -> None:
    async with await router_on(api) as router:
        result = await router.invoke(SI)
    assert result.route == ["mp_api.search"]
    assert result.records == [{"band_gap": 0.61, "material_id": "mp-149", "formula_pretty": "Si"}]
    assert api.requests[-1].query["_fields"] == "band_gap,material_id,formula_pretty"


async def test_down_answers_503_and_the_router_falls_back(api: MaterialsApi) -> None:
    api.fault = Down()
    async with await router_on(api) as router:
        result = await router.invoke(SI)
    assert result.route == ["mp_api.search", "mp_python.search"]


async def test_fail_times_answers_after_the_failures(api: MaterialsApi) -> None:
    api.fault = FailTimes(1)
    retry = RetryPolicy(max_attempts=2, backoff_seconds=0, jitter=False)
    async with await router_on(api, retry=retry) as router:
        result = await router.invoke(SI)
    assert (result.route, len(result.attempts), api.calls) == (["mp_api.search"], 2, 2)


async def test_retry_after_sends_the_header(api: MaterialsApi) -> None:
    api.fault = RetryAfter(3)
    async with httpx.AsyncClient() as client:
        answer = await client.get(f"{api.url}/materials/summary/", params={"formula": "Si"})
    assert (answer.status_code, answer.headers["retry-after"]) == (503, "3")


async def test_hang_times_out_and_the_router_falls_back(api: MaterialsApi) -> None:
    api.fault = Hang()
    async with await router_on(api, timeout_seconds=0.2) as router:
        result = await router.invoke(SI)
    assert result.route == ["mp_api.search", "mp_python.search"]


async def test_slow_still_answers(api: MaterialsApi) -> None:
    api.fault = Slow(0.05)
    async with await router_on(api) as router:
        result = await router.invoke(SI)
    assert result.route == ["mp_api.search"]


async def test_the_document_and_heartbeat_are_never_faulted(api: MaterialsApi) -> None:
    api.fault = Down()
    async with httpx.AsyncClient() as client:
        assert (await client.get(api.openapi_url)).status_code == 200
        assert (await client.get(f"{api.url}/heartbeat")).status_code == 200


async def test_a_key_is_required_when_set() -> None:
    with MaterialsApi(api_key="k") as api:
        async with httpx.AsyncClient() as client:
            url = f"{api.url}/materials/summary/"
            assert (await client.get(url)).status_code == 401
            assert (await client.get(url, headers={"x-api-key": "k"})).status_code == 200


async def test_elements_filter_on_every_listed_element(api: MaterialsApi) -> None:
    async with httpx.AsyncClient() as client:
        answer = await client.get(f"{api.url}/materials/summary/", params={"elements": "Ga,As"})
    assert [r["formula_pretty"] for r in answer.json()["data"]] == ["GaAs"]


async def test_the_federation_twin_registers_one_tool_per_database() -> None:
    from schemarouter_integrations.testing import OptimadeFederation

    with OptimadeFederation() as twin:
        async with SchemaRouter() as router:
            report = await router.add_optimade_federation(twin.providers_url)
    assert (report.registered, report.skipped) == (["alexandria_main", "gnome_main", "oqmd_main"], {})


async def test_each_federation_database_answers_with_its_own_band_gap_property() -> None:
    from schemarouter_integrations.testing import OptimadeFederation

    with OptimadeFederation() as twin:
        async with SchemaRouter() as router:
            await router.add_optimade_federation(twin.providers_url)
            gathered = await router.gather(PlanRequest(query="band gap", arguments={"formula": "Si"}))
    gaps = {record["provider"]: record["band_gap"] for record in gathered.records}
    assert gaps == {"oqmd": 0.62, "alexandria": 0.71, "gnome": 0.66}


async def test_a_faulted_federation_database_fails_alone() -> None:
    from schemarouter_integrations.testing import OptimadeFederation

    with OptimadeFederation() as twin:
        twin.faults["gnome"] = Down()
        async with SchemaRouter() as router:
            await router.add_optimade_federation(twin.providers_url)
            request = PlanRequest(query="band gap", arguments={"elements": ["Ga", "As"]})
            gathered = await router.gather(request)
    assert list(gathered.failures) == ["gnome_main.search_structures"]
    assert sorted(r["provider"] for r in gathered.records) == ["alexandria", "oqmd"]


async def test_the_federation_twin_refuses_a_filter_it_does_not_understand() -> None:
    from schemarouter_integrations.testing import OptimadeFederation

    with OptimadeFederation(("oqmd",)) as twin:
        async with httpx.AsyncClient() as client:
            url = f"{twin.database_url('oqmd')}/v1/structures"
            answer = await client.get(url, params={"filter": "nsites > 2"})
    assert answer.status_code == 400
