"""Questions the real-MP tests once answered, on the real server whose collections hold
different materials as MP's do (the summary every material, the electronic-structure resource
two: Fe and WO2, the magnetism resource ten), with every operation of the document registered.

Those the planner still gets wrong are ``xfail(strict=True)``: each flips (and must then be
unmarked) once the planner reads the question as its asker meant it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter, ToolResult
from tests.integration.materials_project.conftest import require_mp_environment

pytestmark = [pytest.mark.integration, pytest.mark.anyio, pytest.mark.timeout(900)]
require_mp_environment()

BuildRouter = Callable[..., Awaitable[SchemaRouter]]
SUMMARY = "search_materials_summary__get"
PLANNER = "planner: picks a specialised resource or reads framing words as needs (question reader)"


def ask(query: str, **arguments: Any) -> PlanRequest:
    return PlanRequest(
        query=query, arguments=arguments, preferred_tools=["mp_api"], fallback_scope="cross_provider"
    )


def values(result: ToolResult, field: str) -> list[Any]:
    return [record[field] for record in result.records if field in record]


async def every_operation(landscape_router: BuildRouter) -> SchemaRouter:
    return await landscape_router(operations=None)


async def test_band_gaps_of_materials_with_ga_and_as_come_from_the_summary(
    landscape_router: BuildRouter,
) -> None:
    router = await every_operation(landscape_router)
    question = ask("materials with elements Ga and As and their band gaps", elements="Ga,As")
    result = await router.invoke(question)
    assert (result.tool, result.endpoint) == ("mp_api", SUMMARY)
    assert values(result, "band_gap") == [1.52]


async def test_structures_containing_ga_and_as_are_found(landscape_router: BuildRouter) -> None:
    router = await every_operation(landscape_router)
    result = await router.invoke(ask("structures containing Ga and As", elements="Ga,As"))
    assert result.tool == "mp_api"
    assert "GaAs" in values(result, "formula_pretty"), result.records


async def test_structures_containing_fe_and_o_are_found(landscape_router: BuildRouter) -> None:
    router = await every_operation(landscape_router)
    result = await router.invoke(ask("structures containing Fe and O", elements="Fe,O"))
    assert result.tool == "mp_api"
    assert {"FeO", "Fe2O3"} <= set(values(result, "formula_pretty")), result.records


async def test_band_gaps_of_these_material_ids_come_from_the_summary(landscape_router: BuildRouter) -> None:
    router = await every_operation(landscape_router)
    result = await router.invoke(ask("band gaps of these material ids", material_ids="mp-2534,mp-149"))
    assert (result.tool, result.endpoint) == ("mp_api", SUMMARY)
    assert sorted(values(result, "band_gap")) == [0.61, 1.52]


async def test_number_of_sites_in_the_si_cell_is_nsites(landscape_router: BuildRouter) -> None:
    router = await every_operation(landscape_router)
    result = await router.invoke(ask("number of sites in the Si cell", formula="Si"))
    assert result.tool == "mp_api"
    assert values(result, "nsites") == [8]


@pytest.mark.xfail(strict=True, reason=PLANNER)
async def test_stability_of_si_polymorphs_is_answered_by_mp_rest_while_it_is_healthy(
    landscape_router: BuildRouter,
) -> None:
    router = await every_operation(landscape_router)
    result = await router.invoke(PlanRequest(query="stability of Si polymorphs", arguments={"formula": "Si"}))
    assert result.tool == "mp_api"
    assert values(result, "energy_above_hull") == [0.0]


async def test_a_band_gap_between_one_and_two_ev_reads_no_framing_or_unit_word_as_a_field(
    landscape_router: BuildRouter,
) -> None:
    router = await every_operation(landscape_router)
    result = await router.invoke(
        ask("materials with a band gap between 1 and 2 eV", band_gap_min=1, band_gap_max=2)
    )
    assert (result.tool, result.endpoint) == ("mp_api", SUMMARY)
    assert sorted(values(result, "formula_pretty")) == ["AlAs", "GaAs", "GaN", "WO2"]


ELECTRONIC = "search_materials_electronic_structure__get"


async def test_the_dos_of_a_material_comes_from_the_electronic_structure_resource(
    landscape_router: BuildRouter,
) -> None:
    # the summary has a ``dos`` field too; the document serves densities of states under the
    # electronic-structure resource (``/materials/electronic_structure/dos/``)
    router = await every_operation(landscape_router)
    result = await router.invoke(ask("DOS of mp-25375", material_ids="mp-25375"))
    assert (result.tool, result.endpoint) == ("mp_api", ELECTRONIC)
    assert values(result, "formula_pretty") == ["WO2"], result.records
    assert values(result, "dos")[0]["total"], result.records


async def test_the_band_structure_of_a_material_comes_from_the_electronic_structure_resource(
    landscape_router: BuildRouter,
) -> None:
    router = await every_operation(landscape_router)
    result = await router.invoke(ask("band structure of WO2", material_ids="mp-25375"))
    assert (result.tool, result.endpoint) == ("mp_api", ELECTRONIC)
    assert values(result, "formula_pretty") == ["WO2"], result.records
    assert values(result, "bandstructure")[0]["setyawan_curtarolo"], result.records
