"""A raw OPTIMADE filter that asks for membership as SQL does (``prop IN "a","b"``, which the
OPTIMADE grammar lacks) reaches the reference server as the ``OR`` clauses it parses, so a
multi-subject question is answered for each subject instead of refused with HTTP 400."""

from __future__ import annotations

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter
from schemarouter_integrations.adapters._optimade.filter import build_filter
from tests.servers.optimade_server import OptimadeServer

pytestmark = pytest.mark.anyio


async def test_band_gaps_of_several_formulas_asked_with_in_answer_each_formula(
    optimade_server: OptimadeServer,
) -> None:
    router = SchemaRouter()
    await router.add_url(optimade_server.url, kind="optimade", name="optimade", provider="oqmd")
    wanted = 'chemical_formula_reduced IN "Si","Ge","GaAs"'
    result = await router.invoke(PlanRequest(query="band gaps", arguments={"filter": wanted}))
    formulas = {r["chemical_formula_reduced"] for r in result.records}
    assert formulas == {"Si", "Ge", "AsGa"}
    assert all(isinstance(r["band_gap"], float) for r in result.records)


async def test_not_in_excludes_the_formulas_listed(optimade_server: OptimadeServer) -> None:
    router = SchemaRouter()
    await router.add_url(optimade_server.url, kind="optimade", name="optimade", provider="oqmd")
    wanted = 'chemical_formula_reduced NOT IN ("Fe2O3", "MgO") AND elements IN "O"'
    result = await router.invoke(PlanRequest(query="band gaps", arguments={"filter": wanted}))
    formulas = {r["chemical_formula_reduced"] for r in result.records}
    assert formulas and not formulas & {"Fe2O3", "MgO"}


def test_in_is_written_as_or_clauses_and_a_list_property_as_has_any() -> None:
    built = build_filter({"filter": 'chemical_formula_reduced IN ("GaAs", "Si") AND elements IN "O","N"'})
    assert built == (
        '((chemical_formula_reduced="AsGa" OR chemical_formula_reduced="Si") AND elements HAS ANY "O","N")'
    )


def test_in_inside_a_string_literal_is_text() -> None:
    built = build_filter({"filter": 'chemical_formula_descriptive="Si IN Ge"'})
    assert built == '(chemical_formula_descriptive="Si IN Ge")'
