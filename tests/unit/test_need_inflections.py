"""Plurals and simple inflections name the same fields; what matched nothing is kept."""

from __future__ import annotations

from schemarouter_integrations import EndpointSpec, FieldSpec, PlanRequest, SchemaRouter, ToolSpec
from schemarouter_integrations._planning.need import read_query
from schemarouter_integrations._registry import singular_forms


def router_with(*fields: FieldSpec) -> SchemaRouter:
    router = SchemaRouter()
    schema = {"type": "object", "properties": {"formula": {"type": "string"}, "elements": {"type": "array"}}}
    router.register(
        ToolSpec(
            name="t",
            endpoints=[EndpointSpec(name="search", fields=list(fields), input_schema=schema, read_only=True)],
        )
    )
    return router


def need(query: str, *fields: FieldSpec) -> tuple[str, ...]:
    return read_query(query, router_with(*fields).registry.index).need.sids


def unmatched(query: str, *fields: FieldSpec, **arguments: object) -> list[str]:
    return router_with(*fields).plan(PlanRequest(query=query, arguments=arguments)).unmatched


BAND_GAP = FieldSpec(name="band_gap", aliases=["gap"])
EMAIL = FieldSpec(name="customer_email")
TITLE = FieldSpec(name="title")
PROPERTY = FieldSpec(name="property")
STATUS = FieldSpec(name="status")
CASE = FieldSpec(name="case")
ELEMENTS = FieldSpec(name="elements")
CREATED = FieldSpec(name="created_at", aliases=["created", "creation"])
ELASTIC = FieldSpec(name="elastic_modulus", aliases=["탄성계수"])


def test_a_plural_phrase_names_the_singular_field() -> None:
    assert need("band gaps of silicon polymorphs", BAND_GAP) == ("band_gap",)


def test_a_plural_last_word_of_a_two_word_field_matches() -> None:
    assert need("customer emails", EMAIL) == ("customer_email",)


def test_plural_s_is_dropped() -> None:
    assert need("issue titles", TITLE) == ("title",)


def test_ies_becomes_y() -> None:
    assert need("properties of Si", PROPERTY) == ("property",)


def test_es_is_dropped_after_s() -> None:
    assert need("order statuses", STATUS) == ("status",)


def test_dropping_s_is_tried_before_dropping_es() -> None:
    assert need("open cases", CASE, FieldSpec(name="cas")) == ("case",)


def test_a_singular_query_word_names_a_plural_field() -> None:
    assert need("which element", ELEMENTS) == ("elements",)


def test_irregular_plurals_of_science_words_match() -> None:
    assert need("bulk moduli", FieldSpec(name="bulk_modulus")) == ("bulk_modulus",)


def test_exact_spelling_is_preferred_over_an_inflection() -> None:
    assert need("news", FieldSpec(name="news"), FieldSpec(name="new")) == ("news",)


def test_derived_forms_match_only_through_an_alias() -> None:
    assert need("creation date of the order", CREATED) == ("created_at",)
    assert need("when was it creating", CREATED) == ()


def test_short_contract_words_do_not_grow_into_other_words() -> None:
    assert need("Ca structures", FieldSpec(name="cas")) == ()


def test_words_ending_in_ss_us_or_is_are_not_plurals() -> None:
    assert singular_forms("class") == ()
    assert singular_forms("status") == ()
    assert singular_forms("basis") == ()


def test_unspaced_scripts_are_never_inflected() -> None:
    assert singular_forms("탄성계수들") == ()
    assert need("Si의 탄성계수는?", ELASTIC) == ("elastic_modulus",)


def test_words_with_digits_are_never_inflected() -> None:
    assert singular_forms("h2os") == ()


def test_words_that_match_no_field_are_unmatched() -> None:
    assert unmatched("melting point of Si", BAND_GAP) == ["melting", "point", "si"]


def test_argument_values_are_not_unmatched() -> None:
    assert unmatched("melting point of Si", BAND_GAP, formula="Si") == ["melting", "point"]


def test_element_symbols_of_a_list_argument_are_not_unmatched() -> None:
    assert unmatched("band gap of Ga As crystals with defects", BAND_GAP, elements=["Ga", "As"]) == [
        "defects"
    ]


def test_the_class_noun_of_a_subject_named_by_its_elements_is_not_unmatched() -> None:
    assert unmatched("band gap of Ga As compounds", BAND_GAP, elements=["Ga", "As"]) == []


def test_element_symbols_of_a_formula_argument_are_not_unmatched() -> None:
    assert unmatched("band gap of GaAs, Ga and As", BAND_GAP, formula="GaAs") == []


def test_argument_names_are_not_unmatched() -> None:
    assert unmatched("band gap by formula Si", BAND_GAP, formula="Si") == []


def test_stop_words_and_numbers_are_not_unmatched() -> None:
    assert unmatched("show me the band gap of the first 5 records", BAND_GAP) == ["first"]


def test_words_that_matched_a_field_are_not_unmatched() -> None:
    assert unmatched("band gaps and melting points", BAND_GAP) == ["melting", "points"]


def test_unmatched_words_of_an_unspaced_script_are_kept_whole() -> None:
    assert unmatched("Si의 녹는점", ELASTIC, formula="Si") == ["녹는점"]


def test_adjacent_unmatched_words_form_one_phrase() -> None:
    plan = router_with(BAND_GAP).plan(
        PlanRequest(query="melting point and density of Si", arguments={"formula": "Si"})
    )
    assert plan.unmatched_phrases() == ["melting point", "density"]


def test_explicit_fields_leave_nothing_unmatched() -> None:
    plan = router_with(BAND_GAP).plan(PlanRequest(query="melting point", fields=["band_gap"]))
    assert plan.unmatched == []


def test_explain_names_the_unmatched_words() -> None:
    plan = router_with(BAND_GAP).plan(PlanRequest(query="band gap and melting point"))
    assert "unmatched: 'melting', 'point'" in plan.explain()
