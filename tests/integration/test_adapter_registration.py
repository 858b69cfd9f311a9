"""Real loopback HTTP: registration by URL, API-key secrecy, OPTIMADE filters and paging, probes."""

from __future__ import annotations

import pytest

from schemarouter_integrations import (
    NonRetryableInvocationError,
    PlanRequest,
    RegistrationError,
    SchemaRouter,
    ServerProjectionSpec,
)
from schemarouter_integrations.adapters import openapi_operation_probe, optimade_info_probe
from tests.servers.materials_api import MaterialsApiServer
from tests.servers.optimade_server import OptimadeServer

pytestmark = [pytest.mark.integration, pytest.mark.anyio]

API_KEY = "mp-test-key-7f3a9c1e5b"
BAND_GAP = PlanRequest(query="Si band gap", arguments={"formula": "Si"}, preferred_tools=["mp_api"])


async def add_mp(router: SchemaRouter, mp: MaterialsApiServer, key: str | None = API_KEY) -> None:
    await router.add_url(
        mp.openapi_url,
        kind="openapi",
        name="mp_api",
        provider="materials_project",
        access_mode="openapi",
        headers={"x-api-key": key} if key else None,
        projection=ServerProjectionSpec(parameter="_fields"),
    )


# -- registration -----------------------------------------------------------------------


async def test_a_document_that_cannot_be_fetched_registers_nothing(
    router: SchemaRouter, materials_api: MaterialsApiServer
) -> None:
    with pytest.raises(RegistrationError, match="404"):
        await router.add_url(f"{materials_api.url}/missing.json", kind="openapi", name="mp_api")
    assert router.tools == {}


async def test_an_unreachable_document_registers_nothing(router: SchemaRouter, refused_url: str) -> None:
    with pytest.raises(RegistrationError, match="could not connect"):
        await router.add_url(f"{refused_url}/openapi.json", kind="openapi", name="mp_api")
    assert router.tools == {}


async def test_an_openapi_document_is_not_an_optimade_api(
    router: SchemaRouter, materials_api: MaterialsApiServer
) -> None:
    with pytest.raises(RegistrationError, match="no OPTIMADE API found"):
        await router.add_url(materials_api.url, kind="optimade", name="oqmd")
    assert router.tools == {}


async def test_the_optimade_api_registers_from_its_versioned_base(
    router: SchemaRouter, optimade_server: OptimadeServer
) -> None:
    spec = await router.add_url(optimade_server.v1_url, kind="optimade", name="oqmd", provider="oqmd")
    structures = spec.endpoint("search_structures")
    assert structures is not None and structures.read_only is True
    paths = {f.name: f.path for f in structures.fields}
    names = ("band_gap", "energy_above_hull", "formation_energy_per_atom", "chemical_formula_reduced")
    assert [paths.get(name) for name in names] == [  # the equivalence table's names
        ["_oqmd_band_gap"],
        ["_oqmd_stability"],
        ["_oqmd_delta_e"],
        ["chemical_formula_reduced"],
    ]
    assert router.binding_state("oqmd") == "ready"


# -- secrets ----------------------------------------------------------------------------


async def test_the_api_key_reaches_the_origin_and_nowhere_visible(
    router: SchemaRouter, materials_api: MaterialsApiServer
) -> None:
    materials_api.api_key = API_KEY
    await add_mp(router, materials_api)
    plan = router.plan(BAND_GAP)
    events = [event async for event in router.stream(plan)]
    assert events[-1].type == "run.end"
    [search] = materials_api.requests.to("/materials/summary")
    assert search.headers["x-api-key"] == API_KEY
    visible = [
        plan.model_dump_json(),
        plan.explain(),
        router.inspect().model_dump_json(),
        repr(router.tools),
        *(event.model_dump_json() for event in events),
    ]
    assert not [text for text in visible if API_KEY in text]


async def test_a_rejected_api_key_is_a_non_retryable_error_that_does_not_show_it(
    router: SchemaRouter, materials_api: MaterialsApiServer
) -> None:
    materials_api.api_key = "the-right-key"
    await add_mp(router, materials_api, key=API_KEY)
    with pytest.raises(NonRetryableInvocationError) as caught:
        await router.invoke(BAND_GAP)
    assert caught.value.status_code == 401
    assert API_KEY not in str(caught.value) and API_KEY not in repr(caught.value)


# -- OPTIMADE searching -----------------------------------------------------------------


async def test_elements_find_the_structures_that_have_them_all(
    router: SchemaRouter, optimade_server: OptimadeServer
) -> None:
    await router.add_url(optimade_server.url, kind="optimade", name="oqmd", provider="oqmd")
    result = await router.invoke(
        PlanRequest(
            query="band gap", fields=["chemical_formula_reduced", "band_gap"], arguments={"elements": "Ga,As"}
        )
    )
    assert result.records == [
        {"chemical_formula_reduced": "AsGa", "band_gap": pytest.approx(0.194), "id": "6727"}
    ]


async def test_a_formula_in_any_element_order_finds_the_reduced_formula(
    router: SchemaRouter, optimade_server: OptimadeServer
) -> None:
    await router.add_url(optimade_server.url, kind="optimade", name="oqmd", provider="oqmd")
    result = await router.invoke(PlanRequest(query="band gap", arguments={"formula": "Ga2As2"}))
    assert result.records == [
        {"band_gap": pytest.approx(0.194), "chemical_formula_reduced": "AsGa", "id": "6727"}
    ]


async def test_a_hostile_formula_stays_one_string_on_the_real_server(
    router: SchemaRouter, optimade_server: OptimadeServer
) -> None:
    await router.add_url(optimade_server.url, kind="optimade", name="oqmd", provider="oqmd")
    result = await router.invoke(
        PlanRequest(query="band gap", arguments={"formula": 'Si" OR chemical_formula_reduced="Ge'})
    )
    assert result.records == []


async def test_pages_are_followed_up_to_max_pages(
    router: SchemaRouter, optimade_server: OptimadeServer
) -> None:
    await router.add_url(optimade_server.url, kind="optimade", name="oqmd", provider="oqmd", max_pages=2)
    result = await router.invoke(
        PlanRequest(query="ids", fields=["id", "nsites"], arguments={"page_limit": 2})
    )
    assert len(result.records) == 4
    assert len(optimade_server.structures) > 4


async def test_the_page_limit_option_sets_the_page_size_the_database_is_asked_for(
    router: SchemaRouter, optimade_server: OptimadeServer
) -> None:
    await router.add_url(
        optimade_server.url, kind="optimade", name="oqmd", provider="oqmd", max_pages=1, page_limit=3
    )
    result = await router.invoke(PlanRequest(query="ids", fields=["id", "nsites"]))
    assert len(result.records) == 3


async def test_an_optimade_error_document_is_surfaced(
    router: SchemaRouter, optimade_server: OptimadeServer
) -> None:
    await router.add_url(optimade_server.url, kind="optimade", name="oqmd", provider="oqmd")
    with pytest.raises(NonRetryableInvocationError, match="Bad Request") as caught:
        await router.invoke(PlanRequest(query="band gap", arguments={"filter": "nelements >>> 2"}))
    assert caught.value.status_code == 400


# -- probes -----------------------------------------------------------------------------


async def test_optimade_info_probe_tracks_the_real_server(
    router: SchemaRouter, optimade_server: OptimadeServer, refused_url: str
) -> None:
    assert await optimade_info_probe(router, optimade_server.url)() is True
    assert await optimade_info_probe(router, refused_url)() is False


async def test_a_heartbeat_probe_reopens_the_route_while_data_queries_fail(
    router: SchemaRouter, materials_api: MaterialsApiServer
) -> None:
    materials_api.api_key = API_KEY
    await add_mp(router, materials_api)
    probe = openapi_operation_probe(router, "mp_api", "heartbeat")
    materials_api.faults.always("503")
    router.register_health_probe("mp_api", "search", probe)
    router.mark_access_unavailable("mp_api", "search", seconds=300)
    assert await probe() is True
    assert materials_api.requests.last.path == "/heartbeat"
    assert materials_api.requests.last.headers["x-api-key"] == API_KEY
