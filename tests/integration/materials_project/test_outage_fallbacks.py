"""An MP REST outage on the real landscape: questions whose value MP's OPTIMADE or OQMD holds
are answered there, with the question carried in each route's own form (a list of formulas as
OPTIMADE ``OR`` clauses, ``material_ids`` as OPTIMADE ``id``), the quantity found by the
OPTIMADE equivalence table (OQMD's ``_oqmd_delta_e`` and MP's ``_mp_stability.<functional>``
are ``formation_energy_per_atom``; ``_oqmd_stability`` is ``energy_above_hull``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from cookbook.services.materials_project.proxy import Mode
from schemarouter_integrations import AllRoutesUnavailableError, PlanRequest, SchemaRouter, ToolResult
from tests.integration.materials_project.conftest import require_mp_environment

pytestmark = [pytest.mark.integration, pytest.mark.anyio, pytest.mark.timeout(900)]
require_mp_environment()

BuildRouter = Callable[..., Awaitable[SchemaRouter]]
SetFault = Callable[[Mode], None]
OPTIMADE_TOOLS = {"mp_optimade", "oqmd"}


def ask(query: str, **arguments: Any) -> PlanRequest:
    return PlanRequest(
        query=query, arguments=arguments, preferred_tools=["mp_api"], fallback_scope="cross_provider"
    )


def by_formula(result: ToolResult, field: str) -> dict[str, Any]:
    return {r["chemical_formula_reduced"]: r[field] for r in result.records if field in r}


@pytest.fixture
async def mp_down(landscape_router: BuildRouter, mp_fault: SetFault) -> SchemaRouter:
    router = await landscape_router()
    mp_fault("503")
    return router


async def test_formation_energy_is_answered_by_an_optimade_route(mp_down: SchemaRouter) -> None:
    result = await mp_down.invoke(ask("formation energy of NaCl", formula="NaCl"))
    assert result.tool in OPTIMADE_TOOLS, result.route
    assert by_formula(result, "formation_energy_per_atom") == {"ClNa": pytest.approx(-2.11, abs=0.2)}


async def test_the_fallback_for_formation_energy_can_be_oqmd(
    landscape_router: BuildRouter, mp_fault: SetFault
) -> None:
    router = await landscape_router(routes=("mp_api", "oqmd"))
    mp_fault("503")
    result = await router.invoke(ask("formation energy per atom of GaN", formula="GaN"))
    assert result.tool == "oqmd"
    assert "GaN" in by_formula(result, "formation_energy_per_atom")


async def test_mps_own_optimade_answers_from_its_stability_object(
    landscape_router: BuildRouter, mp_fault: SetFault
) -> None:
    router = await landscape_router(routes=("mp_api", "mp_optimade"))
    mp_fault("503")
    result = await router.invoke(ask("energy above hull of Fe2O3", formula="Fe2O3"))
    assert result.tool == "mp_optimade"
    assert by_formula(result, "energy_above_hull") == {"Fe2O3": 0.013}


async def test_a_list_of_formulas_goes_to_optimade_as_or_clauses(mp_down: SchemaRouter) -> None:
    result = await mp_down.invoke(ask("band gap of Si and GaAs", formula=["Si", "GaAs"]))
    assert result.tool == "oqmd", result.route
    assert set(by_formula(result, "band_gap")) == {"Si", "AsGa"}


async def test_a_comma_joined_list_of_formulas_is_not_one_formula(mp_down: SchemaRouter) -> None:
    result = await mp_down.invoke(ask("band gaps of Si, GaAs and GaN", formula="Si,GaAs,GaN"))
    assert result.tool == "oqmd", result.route
    assert set(by_formula(result, "band_gap")) == {"Si", "AsGa", "GaN"}


async def test_material_ids_reach_optimades_id(mp_down: SchemaRouter) -> None:
    result = await mp_down.invoke(ask("formation energy", material_ids=["mp-149", "mp-2534"]))
    assert result.tool == "mp_optimade", result.route
    assert set(by_formula(result, "formation_energy_per_atom")) == {"Si", "AsGa"}


async def test_a_range_filter_goes_to_oqmd_on_its_own_property(mp_down: SchemaRouter) -> None:
    request = ask("band gaps of Ga compounds above 1 eV", elements=["Ga"], band_gap_min=1.0)
    result = await mp_down.invoke(request)
    assert result.tool == "oqmd", result.route
    gaps = by_formula(result, "band_gap")
    assert gaps and all(gap >= 1.0 for gap in gaps.values()), result.records


async def test_a_filter_no_fallback_takes_is_named_in_the_error(mp_down: SchemaRouter) -> None:
    with pytest.raises(AllRoutesUnavailableError) as raised:
        await mp_down.invoke(ask("band gap of stable materials", formula="Si", is_stable=True))
    refused = raised.value.refused_arguments
    assert "oqmd.search_structures" in refused  # it holds band gaps, but has no is_stable
    assert all("is_stable" in reason for reason in refused.values())
    assert "is_stable" in str(raised.value)
