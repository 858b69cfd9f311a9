"""A query word that no field surface read but that is a word of a field's name on the chosen
route selects that field beside the need's (the Materials Project's own OpenAPI document):
the question asked about it, so the answer carries its value."""

from __future__ import annotations

import pytest

from schemarouter_integrations import PlanRequest
from tests.support.emmet_document import SUMMARY, emmet_router

pytestmark = pytest.mark.anyio


async def selected(query: str, **arguments: object) -> list[str]:
    router = await emmet_router()
    plan = router.plan(PlanRequest(query=query, arguments=arguments))
    assert plan.primary is not None and plan.primary.endpoint == SUMMARY
    return plan.primary.selected_fields


async def test_direct_or_indirect_band_gap_selects_the_direct_gap_flag() -> None:
    fields = await selected("is the band gap of GaAs direct or indirect", formula="GaAs")
    assert {"band_gap", "is_gap_direct"} <= set(fields)


async def test_bulk_and_shear_moduli_select_both_moduli() -> None:
    fields = await selected("is SiC stiff? bulk and shear moduli please", formula="SiC")
    assert {"bulk_modulus", "shear_modulus"} <= set(fields)


async def test_the_species_that_carry_the_moment_select_the_magnetic_species() -> None:
    fields = await selected("which species carry the magnetic moment in KP", formula="KP")
    assert "types_of_magnetic_species" in fields


async def test_a_word_naming_no_field_selects_nothing_more() -> None:
    fields = await selected("band gap of Si polymorphs", formula="Si")
    assert fields == ["band_gap", "formula_pretty", "material_id"]


async def test_a_stability_flag_brings_the_hull_energy_its_description_names() -> None:
    fields = await selected("stability of Si polymorphs", formula="Si")
    assert {"is_stable", "energy_above_hull"} <= set(fields)


async def test_a_quantity_that_is_no_flag_brings_nothing_from_its_description() -> None:
    fields = await selected("formation energy of Si", formula="Si")
    assert "energy_above_hull" not in fields
