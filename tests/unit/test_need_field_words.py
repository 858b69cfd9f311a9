"""Field words: a question names a snake_case field through the words of its name and, weaker,
of its description (``_registry/fieldwords.py``). The contract below is ours: the field names
follow a materials database's, the descriptions are written for these tests."""

from __future__ import annotations

import pytest

from schemarouter_integrations import EndpointSpec, FieldSpec, PlanRequest, SchemaRouter, ToolSpec
from schemarouter_integrations._planning.need import read_query

SUMMARY_FIELDS = [
    FieldSpec(name="material_id", identity=True, description="Identifier of the material record."),
    FieldSpec(name="formula_pretty", identity=True, description="Reduced formula, written for people."),
    FieldSpec(name="band_gap", description="Gap between valence and conduction bands, eV."),
    FieldSpec(name="energy", description="Energy of the relaxed cell, eV."),
    FieldSpec(name="energy_per_atom", description="Corrected energy of one atom, eV."),
    FieldSpec(name="formation_energy_per_atom", description="Energy to form the compound from its elements."),
    FieldSpec(name="energy_above_hull", description="Distance to the convex hull, eV per atom."),
    FieldSpec(name="is_stable", description="True when the compound lies on the convex hull."),
    FieldSpec(name="nsites", description="Total number of sites in the structure."),
    FieldSpec(name="num_magnetic_sites", description="How many sites carry a magnetic moment."),
    FieldSpec(name="nelements", description="Number of distinct elements."),
    FieldSpec(name="n", description="Refractive index."),
    FieldSpec(name="density", description="Mass per volume, g/cm3."),
]
SCHEMA = {"type": "object", "properties": {"formula": {"type": "string"}}}


def summary_router() -> SchemaRouter:
    router = SchemaRouter()
    endpoint = EndpointSpec(
        name="summary_search",
        description="Search material summaries.",
        read_only=True,
        input_schema=SCHEMA,
        fields=SUMMARY_FIELDS,
    )
    router.register(ToolSpec(name="mp_api", provider="materials_project", endpoints=[endpoint]))
    return router


def need(query: str, **arguments: str) -> list[str]:
    return summary_router().plan(PlanRequest(query=query, arguments=arguments)).need


def test_a_question_word_names_the_one_content_word_of_a_snake_case_name() -> None:
    assert need("Is Fe2O3 stable?", formula="Fe2O3") == ["is_stable"]


def test_a_derived_noun_meets_its_base_in_a_field_name() -> None:
    assert need("stability of Fe2O3", formula="Fe2O3") == ["is_stable"]


def test_a_field_name_word_meets_a_derived_noun_of_the_question() -> None:
    router = SchemaRouter()
    router.register(
        ToolSpec(name="t", endpoints=[EndpointSpec(name="s", fields=[FieldSpec(name="stability")])])
    )
    assert router.plan("Is Si stable?").need == ["stability"]


def test_most_words_of_a_longer_name_name_it() -> None:
    assert need("formation energy of NaCl", formula="NaCl") == ["formation_energy_per_atom"]


def test_a_field_word_reading_takes_in_an_exact_match_of_its_own_name_words() -> None:
    found = read_query("formation energy", summary_router().registry.index)
    assert [t.key for t in found.terms] == ["formation energy"]


def test_a_description_explains_a_question_word_the_name_abbreviates() -> None:
    assert need("number of sites of GaAs", formula="GaAs") == ["nsites"]


def test_a_field_lacking_a_distinctive_name_word_ranks_after_one_lacking_none() -> None:
    assert need("how many magnetic sites") == ["num_magnetic_sites"]


def test_a_field_named_by_one_letter_is_read_through_its_whole_description() -> None:
    assert need("refractive index of Si", formula="Si") == ["n"]


def test_exact_surfaces_still_win_over_field_words() -> None:
    assert need("energy above hull of Fe2O3", formula="Fe2O3") == ["energy_above_hull"]


def test_a_lone_name_word_of_a_two_word_name_is_no_reading() -> None:
    router = SchemaRouter()
    fields = [FieldSpec(name="open_issues"), FieldSpec(name="title")]
    router.register(ToolSpec(name="t", endpoints=[EndpointSpec(name="s", fields=fields)]))
    assert router.plan("open titles").unmatched == ["open"]


def test_a_word_met_only_in_a_description_does_not_choose_the_field() -> None:
    router = SchemaRouter()
    fields = [FieldSpec(name="pull_requests", description="Pull requests that are open for this run.")]
    router.register(ToolSpec(name="t", endpoints=[EndpointSpec(name="s", fields=fields)]))
    found = read_query("open pull requests", router.registry.index)
    assert [t.key for t in found.terms] == ["pull requests"]
    assert found.uncovered == ("open",)


def test_an_argument_value_never_becomes_a_field_word() -> None:
    router = SchemaRouter()
    endpoint = EndpointSpec(
        name="s", input_schema=SCHEMA, fields=[FieldSpec(name="silicon_content"), FieldSpec(name="band_gap")]
    )
    router.register(ToolSpec(name="t", endpoints=[endpoint]))
    plan = router.plan(PlanRequest(query="band gap of silicon", arguments={"formula": "silicon"}))
    assert plan.need == ["band_gap"]


def test_a_question_without_such_words_stays_without_a_route() -> None:
    plan = summary_router().plan(PlanRequest(query="melting point of Si", arguments={"formula": "Si"}))
    assert plan.primary is None
    assert plan.unmatched == ["melting", "point"]


def test_field_words_leave_the_index_with_their_tool() -> None:
    router = summary_router()
    router.remove_tool("mp_api")
    assert len(router.registry.index.field_words) == 0


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("What is the band gap of Si?", "band_gap"),
        ("energy per atom", "energy_per_atom"),
        ("number of elements", "nelements"),
        ("density", "density"),
    ],
)
def test_plain_questions_keep_their_field(query: str, field: str) -> None:
    assert need(query) == [field]


@pytest.mark.parametrize(
    "query",
    ["energy per atom and formation energy", "energy, formation energy", "formation energy and energy"],
)
def test_a_list_of_fields_keeps_each_field_the_question_names(query: str) -> None:
    need = summary_router().plan(PlanRequest(query=query)).need

    assert "formation_energy_per_atom" in need and len(need) == 2


def test_a_symbol_named_field_is_read_from_its_words_and_its_descriptions() -> None:
    router = SchemaRouter()
    fields = [
        FieldSpec(name="piezo", description="Piezo part of the strain tensor."),
        FieldSpec(name="k_piezo", description="Piezo share of the coupling coefficient."),
    ]
    router.register(ToolSpec(name="t", endpoints=[EndpointSpec(name="s", fields=fields)]))
    assert router.plan("piezo coupling coefficient of quartz").need == ["k_piezo"]


def test_a_field_described_in_a_unit_is_read_as_the_quantity_the_unit_measures() -> None:
    router = SchemaRouter()
    fields = [
        FieldSpec(name="is_magnetic", description="Whether the cell is magnetic."),
        FieldSpec(name="net_spin", description="Net spin of the cell in µB."),
    ]
    router.register(ToolSpec(name="t", endpoints=[EndpointSpec(name="s", fields=fields)]))
    assert router.plan("magnetic moment of the cell").need == ["net_spin"]


def test_a_word_the_documents_do_not_use_stands_in_for_one_word_of_a_long_field_name() -> None:
    assert need("formation enthalpy per atom of MgO", formula="MgO") == ["formation_energy_per_atom"]


def test_a_word_that_names_a_field_of_its_own_stands_in_for_nothing() -> None:
    assert need("formation density per atom of MgO", formula="MgO") == ["density"]


def test_a_two_word_field_name_takes_no_stand_in() -> None:
    assert need("band enthalpy gap of Si", formula="Si") != ["band_gap"]


def test_a_stand_in_takes_the_place_of_a_word_inside_the_name_never_at_its_end() -> None:
    assert need("energy enthalpy per formation of MgO", formula="MgO") != ["formation_energy_per_atom"]


def one_route(*fields: FieldSpec) -> SchemaRouter:
    router = SchemaRouter()
    endpoint = EndpointSpec(name="search", read_only=True, input_schema=SCHEMA, fields=list(fields))
    router.register(ToolSpec(name="db", endpoints=[endpoint]))
    return router


def test_a_word_ending_in_a_short_field_word_does_not_meet_it() -> None:
    router = one_route(
        FieldSpec("working_ion", description="The ion that moves in and out of the electrode."),
        FieldSpec("weighted_work_function", description="Area-weighted work function, eV."),
    )
    assert router.plan(PlanRequest(query="work function of Au", arguments={"formula": "Au"})).need == [
        "weighted_work_function"
    ]


def test_an_argument_name_inside_a_field_phrase_is_a_word_of_that_phrase() -> None:
    router = one_route(
        FieldSpec("formula_units", description="Formula units in the cell."),
        FieldSpec("total_magnetization", description="Total magnetic moment of the cell, in μB."),
        FieldSpec(
            "total_magnetization_normalized_formula_units",
            description="Total magnetic moment per formula unit, in μB.",
        ),
    )
    plan = router.plan(
        PlanRequest(query="magnetic moment per formula unit of Fe2O3", arguments={"formula": "Fe2O3"})
    )
    assert plan.need == ["total_magnetization_normalized_formula_units"]


def test_a_partial_answer_serves_the_term_that_reads_more_of_the_question() -> None:
    router = SchemaRouter()
    for name, field in (
        ("ground_states", FieldSpec("state", description="Whether the fit succeeded.")),
        ("energies", FieldSpec("energy_per_atom", description="Total energy of one atom, eV.")),
    ):
        endpoint = EndpointSpec(name=name, read_only=True, input_schema=SCHEMA, fields=[field])
        router.register(ToolSpec(name=f"db_{name}", endpoints=[endpoint]))
    plan = router.plan(PlanRequest(query="ground state energy per atom of Si", arguments={"formula": "Si"}))
    assert plan.primary is not None and plan.primary.endpoint == "energies"


def test_a_compound_ending_in_a_short_field_word_meets_it_after_another_word_of_the_name() -> None:
    router = one_route(FieldSpec("band_gap", description="Gap between valence and conduction bands, eV."))
    assert router.plan(
        PlanRequest(query="what's the bandgap of silicon", arguments={"formula": "Si"})
    ).need == ["band_gap"]
