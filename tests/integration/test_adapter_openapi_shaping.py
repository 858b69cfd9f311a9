"""Over a real loopback FastAPI server that returns only ``material_id`` unless ``_fields`` asks
for more: the projection is found in its document, a list argument reaches its comma-separated
``elements`` joined, fields it did not return are never shown as values, and its slow document
registers under a short call timeout."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter
from schemarouter_integrations._framework import result_content
from tests.servers.projecting_api import projecting_api
from tests.servers.uvicorn_thread import UvicornThread

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def server() -> Iterator[UvicornThread]:
    with projecting_api() as running:
        yield running


async def registered(server: UvicornThread, **options: object) -> SchemaRouter:
    router = SchemaRouter()
    await router.add_url(
        f"{server.url}/openapi.json",
        kind="openapi",
        name="mp_api",
        provider="mp",
        **options,  # type: ignore[arg-type]
    )
    return router


async def test_the_energy_above_hull_comes_back_as_a_number_through_the_detected_projection(
    server: UvicornThread,
) -> None:
    async with await registered(server) as router:
        result = await router.invoke(PlanRequest(query="energy above hull", arguments={"formula": "Fe2O3"}))
    assert result.records == [
        {"energy_above_hull": 0.0, "material_id": "mp-19770", "formula_pretty": "Fe2O3"}
    ]


async def test_without_a_projection_the_unreturned_field_is_absent_and_never_shown_as_null(
    server: UvicornThread,
) -> None:
    async with await registered(server, projection=False) as router:
        result = await router.invoke(PlanRequest(query="energy above hull", arguments={"formula": "Fe2O3"}))
    assert result.records == [{"material_id": "mp-19770"}]
    text = result_content(result)
    assert "The source did not return: energy_above_hull." in text.splitlines()
    assert "null" not in text


async def test_a_null_the_server_returned_stays_none(server: UvicornThread) -> None:
    async with await registered(server) as router:
        result = await router.invoke(PlanRequest(query="is stable", arguments={"formula": "Si"}))
    assert result.records == [{"is_stable": None, "material_id": "mp-149", "formula_pretty": "Si"}]


async def test_a_list_of_elements_reaches_the_comma_separated_parameter_joined(
    server: UvicornThread,
) -> None:
    async with await registered(server) as router:
        request = PlanRequest(query="band gap", arguments={"elements": ["Ga", "As"]})
        assert "elements: list joined with ','" in router.plan(request).explain()
        result = await router.invoke(request)
    gaas = {"band_gap": 0.19, "material_id": "mp-2534", "formula_pretty": "GaAs", "elements": ["As", "Ga"]}
    assert result.records == [gaas]  # the field the list filters comes back with the answer


async def test_a_slow_document_registers_with_a_short_call_timeout(server: UvicornThread) -> None:
    async with SchemaRouter() as router:
        spec = await router.add_url(
            f"{server.url}/slow-openapi.json",
            kind="openapi",
            name="mp_api",
            base_url=server.url,
            timeout_seconds=0.5,
        )
        result = await router.invoke(PlanRequest(query="band gap", arguments={"formula": "Si"}))
    assert [e.name for e in spec.endpoints] == ["summary_search"]
    assert result.records == [{"band_gap": 0.61, "material_id": "mp-149", "formula_pretty": "Si"}]
