"""What the real MP server serves: real documents in every collection, each for its own materials.

Asked over HTTP at the MP API's origin (the fault proxy in ``pass`` mode), as any client would.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from cookbook.services.materials_project.landscape import MPLandscape
from tests.integration.materials_project.conftest import require_mp_environment

pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]
require_mp_environment()


def get(landscape: MPLandscape, path: str, **params: Any) -> list[dict[str, Any]]:
    landscape.set_fault("pass")
    answer = httpx.get(f"{landscape.mp_url}{path}", params=params, timeout=30.0)
    assert answer.status_code == 200, answer.text
    data: list[dict[str, Any]] = answer.json()["data"]
    return data


def formulas(records: list[dict[str, Any]]) -> set[str]:
    return {record["formula_pretty"] for record in records}


def test_synthesis_keywords_are_answered_from_the_recipes_paragraphs(mp_landscape: MPLandscape) -> None:
    recipes = get(mp_landscape, "/materials/synthesis/", keywords="solid-state reaction")
    assert [recipe["targets_formula_s"] for recipe in recipes] == [["Nb9PO25"]]


def test_synthesis_recipes_are_found_by_target_formula(mp_landscape: MPLandscape) -> None:
    (recipe,) = get(mp_landscape, "/materials/synthesis/", target_formula="Li4Ti5O12")
    assert recipe["reaction_string"] == "2 Li2CO3 + 5 TiO2 == 1 Li4Ti5O12 + 2 CO2"


def test_robocrystallographer_text_search_finds_the_rutile_description(mp_landscape: MPLandscape) -> None:
    (found,) = get(mp_landscape, "/materials/robocrys/text_search/", keywords="rutile")
    assert found["condensed_structure"]["formula"] == "SnO2"


def test_material_ids_are_queried_in_the_legacy_form_and_answered_as_alpha_ids(
    mp_landscape: MPLandscape,
) -> None:
    (si,) = get(mp_landscape, "/materials/summary/", material_ids="mp-149", _fields="material_id,band_gap")
    assert si == {"material_id": "mp-aaaaaaft", "band_gap": 0.61}


def test_every_collection_serves_real_documents_from_emmets_test_data(mp_landscape: MPLandscape) -> None:
    (sic,) = get(mp_landscape, "/materials/elasticity/", _fields="formula_pretty,bulk_modulus")
    assert sic["bulk_modulus"]["vrh"] == pytest.approx(212.682)
    (si,) = get(mp_landscape, "/materials/dielectric/", _fields="e_total,n")
    assert si["e_total"] == pytest.approx(13.0034, abs=1e-3) and si["n"] == pytest.approx(3.606, abs=1e-3)
    kp = get(mp_landscape, "/materials/magnetism/", material_ids="mp-1057787", _fields="ordering")
    assert kp == [{"ordering": "FM"}]
    (xas,) = get(mp_landscape, "/materials/xas/", _fields="formula_pretty,spectrum_type,edge")
    assert xas == {"formula_pretty": "BaH4O3", "spectrum_type": "EXAFS", "edge": "K"}
    (similar,) = get(mp_landscape, "/materials/similarity/", material_ids="mp-149", _fields="sim")
    assert len(similar["sim"]) == 5


def test_specialised_collections_hold_fewer_materials_than_the_summary(mp_landscape: MPLandscape) -> None:
    summary = formulas(get(mp_landscape, "/materials/summary/", _limit=1000, _fields="formula_pretty"))
    electronic = formulas(get(mp_landscape, "/materials/electronic_structure/", _fields="formula_pretty"))
    thermo = formulas(get(mp_landscape, "/materials/thermo/", _limit=1000, _fields="formula_pretty"))
    assert electronic == {"Fe", "WO2"}
    assert {"GaAs", "Si", "SiC", "KP"} <= summary - electronic - thermo
    assert electronic < summary and thermo <= summary | {"Fe", "Fe2O3"}


def test_polymorphs_the_summary_leaves_out_are_in_the_thermo_collection(mp_landscape: MPLandscape) -> None:
    iron = get(mp_landscape, "/materials/thermo/", formula="Fe", _fields="material_id")
    assert len(iron) == 8
    assert len(get(mp_landscape, "/materials/summary/", formula="Fe", _fields="material_id")) == 1
