"""The reading stage: which words of a question are needs, evidence, or neither.

Over the Materials Project API's own document (``tests/support/emmet_document.py``).
"""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import EndpointSpec, FieldSpec, Plan, SchemaRouter, ToolSpec
from tests.support.emmet_document import LANDSCAPE, SUMMARY, ask, emmet_router

pytestmark = pytest.mark.anyio


async def plan_of(query: str, operations: Any = LANDSCAPE, **arguments: Any) -> Plan:
    router = await emmet_router(operations)
    return router.plan(ask(query, **arguments))


async def test_unit_and_framing_words_of_a_range_are_neither_needs_nor_unmatched() -> None:
    plan = await plan_of("materials with a band gap between 1 and 2 eV", band_gap_min=1, band_gap_max=2)
    assert plan.primary is not None and plan.primary.endpoint == SUMMARY
    assert plan.unmatched == []
    assert plan.missing == []


async def test_a_unit_written_in_mixed_case_after_a_number_is_no_word_of_the_question() -> None:
    plan = await plan_of("band gap above 1.5 meV", formula="Si")
    assert "mev" not in plan.unmatched
    assert plan.need == ["band_gap"]


async def test_a_framing_word_is_not_unmatched() -> None:
    plan = await plan_of("structures containing Fe and O", elements=["Fe", "O"])
    assert plan.unmatched == []


async def test_an_argument_word_inside_a_field_phrase_still_reads_the_field() -> None:
    plan = await plan_of("magnetization per formula unit of Fe", operations=None, formula="Fe")
    assert plan.need == ["total_magnetization_normalized_formula_units"]
    assert plan.primary is not None and plan.primary.endpoint == SUMMARY


async def test_a_phrase_whose_initials_name_a_field_reads_that_field() -> None:
    plan = await plan_of("density of states of Si", operations=None, formula="Si")
    assert plan.need == ["dos"]
    assert plan.primary is not None and plan.primary.evidence["dos"].matched == "density of states"


async def test_an_abbreviation_a_description_defines_names_its_field() -> None:
    spelled = FieldSpec("density_of_states", description="The electronic density of states (DOS).")
    router = SchemaRouter()
    router.register(
        ToolSpec("dft", endpoints=[EndpointSpec("search", read_only=True, fields=[FieldSpec("id"), spelled])])
    )
    assert router.plan("DOS of silicon").need == ["density_of_states"]


async def test_a_term_another_route_names_is_read_through_each_routes_own_fields() -> None:
    plan = await plan_of("magnetic ordering of Fe", formula="Fe")
    assert plan.primary is not None and plan.primary.endpoint == SUMMARY
    assert plan.need == ["ordering"]
    assert plan.primary.evidence["ordering"].field == "ordering"


async def test_an_argument_name_in_the_question_is_no_need() -> None:
    plan = await plan_of("materials with elements Ga and As and their band gaps", elements=["Ga", "As"])
    assert plan.need == ["band_gap"]


async def test_another_sources_one_word_field_does_not_change_this_routes_reading() -> None:
    router = await emmet_router(LANDSCAPE)
    references = EndpointSpec(
        "search_references",
        read_only=True,
        fields=[
            FieldSpec("id", identity=True),
            FieldSpec("number", description="Issue number of the journal"),
        ],
    )
    router.register(ToolSpec("references", provider="other", endpoints=[references]))
    plan = router.plan(ask("number of sites in the Si cell", formula="Si"))
    assert plan.need == ["nsites"]


async def test_a_nested_field_is_served_by_a_route_that_returns_its_object_whole() -> None:
    # elasticity opens shear_modulus {voigt, reuss, vrh} but takes no formula; the summary
    # returns shear_modulus whole (a map of the averages), so the vrh comes inside it
    plan = await plan_of("shear modulus G_VRH of SiC", operations=None, formula="SiC")
    assert plan.primary is not None and plan.primary.endpoint == SUMMARY
    assert plan.need == ["shear_modulus"] and plan.missing == []
