"""Questions to the real Materials Project landscape (emmet-api, MPRester, the OPTIMADE server).

Each test asks one question with ``preferred_tools=["mp_api"]`` and
``fallback_scope="cross_provider"``, as an application would, and checks who answered and
what: values the server holds, never nulls standing in for fields it was not asked for.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from schemarouter_integrations import NoRouteError, PlanRequest, SchemaRouter, ToolResult
from tests.integration.materials_project.conftest import require_mp_environment

pytestmark = [pytest.mark.integration, pytest.mark.anyio, pytest.mark.timeout(900)]
require_mp_environment()

BuildRouter = Callable[..., Awaitable[SchemaRouter]]
"""Why the questions below fail today: listed with the others in ``test_question_regressions.py``."""


def ask(query: str, **arguments: Any) -> PlanRequest:
    return PlanRequest(
        query=query, arguments=arguments, preferred_tools=["mp_api"], fallback_scope="cross_provider"
    )


def values(result: ToolResult, field: str) -> list[Any]:
    return [record[field] for record in result.records if field in record]


async def test_band_gap_of_si_is_answered_by_mp_rest(landscape_router: BuildRouter) -> None:
    router = await landscape_router()
    result = await router.invoke(ask("band gap of Si", formula="Si"))
    assert result.tool == "mp_api"
    assert values(result, "band_gap") == [0.61]


async def test_energy_above_hull_of_fe2o3_is_a_number(landscape_router: BuildRouter) -> None:
    router = await landscape_router()
    result = await router.invoke(ask("energy above hull of Fe2O3", formula="Fe2O3"))
    assert result.provider == "materials_project"
    hulls = values(result, "energy_above_hull")
    assert hulls and all(isinstance(hull, float) for hull in hulls), result.records


async def test_fe2o3_stability_is_answered_from_is_stable(landscape_router: BuildRouter) -> None:
    router = await landscape_router()
    result = await router.invoke(ask("Is Fe2O3 stable?", formula="Fe2O3"))
    assert result.tool == "mp_api"
    assert values(result, "is_stable") == [False]


async def test_formation_energy_of_nacl_is_formation_energy_per_atom(landscape_router: BuildRouter) -> None:
    router = await landscape_router()
    result = await router.invoke(ask("formation energy of NaCl", formula="NaCl"))
    assert result.tool == "mp_api"
    assert values(result, "formation_energy_per_atom") == [-2.11]


async def test_band_gaps_of_materials_with_ga_and_as_come_from_mp_rest_with_joined_elements(
    landscape_router: BuildRouter,
) -> None:
    router = await landscape_router()
    request = ask("band gap of materials with elements Ga and As", elements=["Ga", "As"])
    primary = router.plan(request).primary
    assert primary is not None and "elements: list joined with ','" in primary.explanation
    result = await router.invoke(request)
    assert result.tool == "mp_api"
    assert values(result, "band_gap") == [1.52]


async def test_structures_containing_ga_and_as_come_from_the_materials_project(
    landscape_router: BuildRouter,
) -> None:
    router = await landscape_router()
    result = await router.invoke(ask("structures containing Ga and As", elements=["Ga", "As"]))
    assert result.provider == "materials_project"
    assert result.tool in {"mp_api", "mp_optimade"}
    elements = values(result, "elements")
    assert elements and all({"Ga", "As"} <= set(found) for found in elements)


async def test_melting_point_of_si_is_no_route_with_the_closest_fields_first(
    landscape_router: BuildRouter,
) -> None:
    router = await landscape_router()
    with pytest.raises(NoRouteError) as raised:
        await router.invoke(ask("melting point of Si", formula="Si"))
    answerable = list(raised.value.answerable)
    assert "melting point" in " ".join(raised.value.unmatched)
    assert answerable, "a no-route answer says what the sources can answer"
    assert answerable != sorted(answerable), "ranked by closeness to the words asked, not alphabetically"


async def test_mp_document_is_read_with_a_two_second_call_timeout(landscape_router: BuildRouter) -> None:
    router = await landscape_router(routes=("mp_api",))
    assert "mp_api" in router.inspect().tools
