"""The scoring rules of ``make eval`` (benchmarks/eval/scoring.py): what counts as right."""

from __future__ import annotations

from benchmarks.eval.corpus import ValueRule
from benchmarks.eval.scoring import (
    conform,
    fields_carried,
    names_missing,
    operation_right,
    refused,
    resolve_arguments,
    value_right,
)

RECORDS = [
    {"formula": "Si", "band_gap": 0.615, "material": {"id": "mp-149"}},
    {"formula": "GaAs", "band_gap": 0.194, "material": {"id": "mp-2534"}},
]


def test_an_expected_value_is_read_from_the_record_the_where_clause_names() -> None:
    rule = ValueRule(field="band_gap", approx=0.194, tolerance=0.001, where={"formula": "GaAs"})
    assert value_right(RECORDS, rule)
    assert not value_right(
        RECORDS, ValueRule(field="band_gap", approx=0.194, tolerance=0.001, where={"formula": "Si"})
    )


def test_a_value_of_another_subject_does_not_count() -> None:
    rule = ValueRule(field="band_gap", equals=0.615, where={"formula": "Ge"})
    assert not value_right(RECORDS, rule)


def test_a_value_is_found_at_any_depth_and_text_compares_without_case() -> None:
    assert value_right(RECORDS, ValueRule(field="id", equals="MP-149"))
    assert value_right([{"gene": {"gene_id": "672"}}], ValueRule(field="gene-id", equals="672"))


def test_a_nested_field_returned_under_its_dotted_name_is_found_by_its_leaf() -> None:
    records = [{"formula_pretty": "SiC", "thermal_conductivity.clarke": 2.9322}]
    assert value_right(records, ValueRule(field="clarke", approx=2.9322, tolerance=0.001))
    assert not value_right(records, ValueRule(field="conductivity", approx=2.9322, tolerance=0.001))


def test_contains_needs_every_listed_value_among_the_records() -> None:
    assert value_right(RECORDS, ValueRule(field="formula", contains=("Si", "GaAs")))
    assert not value_right(RECORDS, ValueRule(field="formula", contains=("Si", "Ge")))


def test_no_records_is_no_value() -> None:
    assert not value_right([], ValueRule(field="band_gap", equals=0.615))


def test_fields_carried_needs_each_field_in_some_record() -> None:
    assert fields_carried(RECORDS, ["band_gap", "id"])
    assert not fields_carried(RECORDS, ["band_gap", "density"])
    assert fields_carried([], [])
    assert not fields_carried([], ["band_gap"])


def test_a_refusal_names_the_missing_term_even_quoted_or_inflected() -> None:
    said = "No data source exposes 'burndown chart', so there is no answer about it."
    assert names_missing(said, ["burndown"])
    assert names_missing(said, ["burndown chart"])
    assert names_missing("No source serves elasticity.", ["elastic"])


def test_a_refusal_that_names_something_else_does_not_count() -> None:
    said = "No data source exposes 'density', 'states'."
    assert names_missing(said, ["density of states"])
    assert not names_missing(said, ["magnetic moment"])
    assert not names_missing("Answered by x.y. Records (2)", ["lyrics"])


def test_the_query_quoted_back_names_nothing() -> None:
    query = "expression of BRCA1 in breast tissue in TPM"
    said = f"No data source can answer this request right now: no eligible route for '{query}'"
    assert not names_missing(said, ["expression"], query=query)
    assert names_missing(f"{said}; nothing serves 'expression'", ["expression"], query=query)


def test_the_planned_operation_must_be_an_expected_one() -> None:
    assert operation_right("get_an_artist", ["get_an_artist", "get_multiple_artists"])
    assert not operation_right("get_an_artists_related_artists", ["get_an_artist"])
    assert not operation_right(None, ["get_an_artist"])


def test_an_unanswerable_question_is_refused_unless_answered_as_if_it_could_be() -> None:
    assert refused(answered=False, planned_missing=[], chosen="x")
    assert refused(answered=True, planned_missing=["lyrics"], chosen="get_track")
    assert not refused(answered=True, planned_missing=[], chosen="get_track")


def test_later_steps_take_the_ids_of_the_earlier_answer() -> None:
    arguments, chained = resolve_arguments(
        {"material_ids": "{steps[0].id}", "first": "{steps[0].id[0]}", "filter": 'id="{steps[0].id[0]|x}"'},
        [RECORDS],
    )
    assert chained
    assert arguments == {"material_ids": ["mp-149", "mp-2534"], "first": "mp-149", "filter": 'id="mp-149"'}


def test_a_missing_earlier_value_uses_the_default_and_marks_the_chain_broken() -> None:
    arguments, chained = resolve_arguments({"id": "{steps[0].id[0]|4Z8W}", "market": "GB"}, [[]])
    assert arguments == {"id": "4Z8W", "market": "GB"}
    assert not chained


def test_arguments_are_written_as_the_shown_schema_asks() -> None:
    text_or_list = {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "string"}]}
    assert conform(2244, text_or_list) == "2244"
    assert conform("GCF_1", {"type": "array", "items": {"type": "string"}}) == ["GCF_1"]
    assert conform(672, {"type": "array", "items": {"type": "string"}}) == ["672"]
    assert conform("emea", {"enum": ["AMER", "APAC", "EMEA"], "type": "string"}) == "EMEA"
    assert conform(["a", "b"], {"type": "string"}) == "a,b"
    assert conform(3, {"type": "integer"}) == 3
    assert conform({"x": 1}, {"type": "string"}) == {"x": 1}
