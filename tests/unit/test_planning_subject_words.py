"""Words that name the question's subject are scope words: never needs, never unmatched.

A formula as written, an element's or an anion's name whose symbols the arguments give, a
proper name or formula of a subject the arguments give by its code, and the subject's class
noun outside the phrase the question asks the value of (``_planning/named.py``).
"""

from __future__ import annotations

from schemarouter_integrations import EndpointSpec, FieldSpec, PlanRequest, SchemaRouter, ToolSpec
from schemarouter_integrations._planning.chemistry import chemical_symbols


def router_with(*fields: str) -> SchemaRouter:
    router = SchemaRouter()
    schema = {
        "type": "object",
        "properties": {n: {"type": "string"} for n in ("formula", "chemsys", "material_id", "artist_id")}
        | {"elements": {"type": "array", "items": {"type": "string"}}},
    }
    endpoint = EndpointSpec(
        name="search", fields=[FieldSpec(name=f) for f in fields], input_schema=schema, read_only=True
    )
    router.register(ToolSpec(name="t", endpoints=[endpoint]))
    return router


def unmatched(query: str, *fields: str, **arguments: object) -> list[str]:
    return router_with(*fields).plan(PlanRequest(query=query, arguments=arguments)).unmatched


def test_an_element_name_whose_symbol_is_given_is_not_unmatched() -> None:
    assert unmatched("band gap of iron", "band_gap", elements=["Fe"]) == []


def test_an_element_name_whose_symbol_is_not_given_stays_unmatched_beside_one_that_is() -> None:
    assert unmatched("band gap of iron and copper", "band_gap", elements=["Fe"]) == ["copper"]


def test_a_compound_named_by_its_element_and_anion_names_is_not_unmatched() -> None:
    assert unmatched("band gap of boron nitride", "band_gap", chemsys="B-N") == []


def test_a_possessive_element_name_reads_as_the_element() -> None:
    assert unmatched("silicon's band gap", "band_gap", elements=["Si"]) == []


def test_a_formula_naming_a_subject_given_by_its_code_is_not_unmatched() -> None:
    assert unmatched("band gap of GaN", "band_gap", material_id="mp-804") == []


def test_a_proper_name_of_a_subject_given_by_its_code_is_not_unmatched() -> None:
    assert unmatched("albums like Radiohead", "album", artist_id="4Z8W4fKeB5YxbusRsdQVPb") == []


def test_a_name_in_the_asked_phrase_is_still_asked() -> None:
    assert unmatched("Raman spectrum of GaN", "band_gap", material_id="mp-804") == ["raman", "spectrum"]


def test_the_class_noun_of_the_subject_is_not_unmatched_outside_the_asked_phrase() -> None:
    assert unmatched("band gap of the GaN crystal", "band_gap", material_id="mp-804") == []


def test_a_class_noun_the_question_asks_the_value_of_is_still_asked() -> None:
    assert unmatched("polymorphs of GaN", "band_gap", material_id="mp-804") == ["polymorphs"]


def test_chemical_words_are_read_as_written() -> None:
    assert chemical_symbols("SnO2") == {"Sn", "O"}
    assert chemical_symbols("Silicon's") == {"Si"}
    assert chemical_symbols("oxides") == {"O"}
    assert chemical_symbols("US") is None  # capitals alone without a digit: a word
    assert chemical_symbols("I") is None  # one letter alone: a word
    assert chemical_symbols("Xy") is None  # no element


def test_a_word_an_argument_value_says_in_another_form_is_not_unmatched() -> None:
    assert unmatched("stable entries", "band_gap", formula="_db_stability=0") == []


def test_a_word_qualifying_the_subject_that_no_source_uses_is_not_unmatched() -> None:
    assert unmatched("band gap of binary oxides of iron", "band_gap", chemsys="Fe-O") == []


def test_a_word_qualifying_the_subject_that_a_source_uses_is_still_read() -> None:
    assert unmatched("binary oxides of iron", "binary", chemsys="Fe-O") == []
    router = router_with("binary", "band_gap")
    plan = router.plan(PlanRequest(query="binary oxides of iron", arguments={"chemsys": "Fe-O"}))
    assert plan.need == ["binary"]


def test_a_word_before_a_formula_as_written_is_not_a_qualifier() -> None:
    assert unmatched("entities named Si", "band_gap", elements=["Si"]) == ["entities", "named"]
