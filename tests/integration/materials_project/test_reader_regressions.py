"""Real questions of a materials agent on the real MP landscape: the operation that holds the answer.

On MP the summary holds every material and the specialised collections (electronic
structure, thermo) hold fewer, so a question a specialised resource also serves goes to the
summary unless it names that resource; a healthy MP REST answers before OPTIMADE; unit and
framing words of a range are no missing fields.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter
from tests.integration.materials_project.conftest import require_mp_environment

pytestmark = [pytest.mark.integration, pytest.mark.anyio, pytest.mark.timeout(900)]
require_mp_environment()

BuildRouter = Callable[..., Awaitable[SchemaRouter]]
SUMMARY = "search_materials_summary__get"
ELECTRONIC = "search_materials_electronic_structure__get"


def ask(query: str, **arguments: Any) -> PlanRequest:
    return PlanRequest(
        query=query, arguments=arguments, preferred_tools=["mp_api"], fallback_scope="cross_provider"
    )


@pytest.mark.parametrize(
    ("query", "arguments", "field"),
    [
        ("materials with elements Ga and As and their band gaps", {"elements": ["Ga", "As"]}, "band_gap"),
        ("structures containing Ga and As", {"elements": ["Ga", "As"]}, "structure"),
        ("structures containing Fe and O", {"elements": ["Fe", "O"]}, "structure"),
        ("number of sites in the Si cell", {"formula": "Si"}, "nsites"),
    ],
)
async def test_a_question_the_summary_answers_goes_to_the_summary(
    landscape_router: BuildRouter, query: str, arguments: dict[str, Any], field: str
) -> None:
    router = await landscape_router()
    result = await router.invoke(ask(query, **arguments))
    assert (result.tool, result.endpoint) == ("mp_api", SUMMARY), result.plan.explain()
    assert result.records and all(record.get(field) is not None for record in result.records)


async def test_band_gaps_of_material_ids_are_asked_of_the_summary(landscape_router: BuildRouter) -> None:
    router = await landscape_router()
    plan = router.plan(ask("band gaps of these material ids", material_ids=["mp-149", "mp-2534"]))
    assert plan.primary is not None
    assert (plan.primary.tool, plan.primary.endpoint) == ("mp_api", SUMMARY)
    assert plan.need == ["band_gap"]


async def test_the_number_of_sites_is_nsites_not_the_magnetic_sites(landscape_router: BuildRouter) -> None:
    router = await landscape_router()
    result = await router.invoke(ask("number of sites in the Si cell", formula="Si"))
    assert result.plan.need == ["nsites"]
    assert [record["nsites"] for record in result.records] == [8]  # the conventional diamond cell


async def test_stability_of_si_polymorphs_comes_from_a_healthy_mp_rest(landscape_router: BuildRouter) -> None:
    router = await landscape_router()
    result = await router.invoke(ask("stability of Si polymorphs", formula="Si"))
    assert result.tool == "mp_api", result.plan.explain()
    assert [record["is_stable"] for record in result.records] == [True]


async def test_a_band_gap_range_names_no_unit_or_framing_word_as_missing(
    landscape_router: BuildRouter,
) -> None:
    router = await landscape_router()
    result = await router.invoke(
        ask("materials with a band gap between 1 and 2 eV", band_gap_min=1, band_gap_max=2)
    )
    assert result.plan.unmatched == [] and result.plan.missing == []
    assert (result.tool, result.endpoint) == ("mp_api", SUMMARY)
    gaps = sorted(record["band_gap"] for record in result.records)
    assert gaps == [1.51, 1.52, 1.74, 1.9916]  # WO2's 1.9916 eV: the electronic-structure test data


async def test_stability_data_for_a_chemical_system_is_answered_with_optimade_registered(
    landscape_router: BuildRouter,
) -> None:
    router = await landscape_router()
    result = await router.invoke(ask("stability data for Li-Fe-O", chemsys="Li-Fe-O"))
    assert (result.tool, result.endpoint) == ("mp_api", SUMMARY)


async def test_the_electronic_structure_named_in_the_question_is_that_resource(
    landscape_router: BuildRouter,
) -> None:
    router = await landscape_router()
    result = await router.invoke(ask("electronic structure of Si", formula="Si"))
    assert (result.tool, result.endpoint) == ("mp_api", ELECTRONIC)
    assert result.plan.reasons, "the plan says why it chose the electronic structure"


async def test_the_crystal_system_inside_the_symmetry_is_a_field(landscape_router: BuildRouter) -> None:
    router = await landscape_router()
    plan = router.plan(ask("what crystal system is SnO2", formula="SnO2"))
    assert plan.need == ["crystal_system"] and plan.unmatched == []
    summary = router.registry.route("mp_api." + SUMMARY)
    assert summary is not None
    served = summary.serving("crystal_system")
    assert served is not None and served.field.wire_path == ["symmetry", "crystal_system"]


async def test_the_symbols_of_the_elasticity_filters_name_the_moduli(landscape_router: BuildRouter) -> None:
    # k_vrh_min: "... average of the bulk modulus"; g_vrh_min: "... of the shear modulus"
    router = await landscape_router(operations=None)
    result = await router.invoke(ask("K_VRH and G_VRH of SiC", formula="SiC"))
    assert result.plan.need == ["bulk_modulus", "shear_modulus"] and result.plan.unmatched == []
    assert (result.tool, result.endpoint) == ("mp_api", SUMMARY), result.plan.explain()
    assert result.records and all(
        r["bulk_modulus"]["vrh"] and r["shear_modulus"]["vrh"] for r in result.records
    )
