"""The data need is read from the query through every field's names, ids and aliases."""

from __future__ import annotations

from schemarouter_integrations import EndpointSpec, FieldSpec, SchemaRouter, ToolSpec
from schemarouter_integrations._planning import need_from_fields, need_from_query


def router_with(*fields: FieldSpec) -> SchemaRouter:
    router = SchemaRouter()
    router.register(ToolSpec(name="t", endpoints=[EndpointSpec(name="search", fields=list(fields))]))
    return router


ELASTIC = FieldSpec(
    name="elastic_modulus",
    aliases=["탄성계수", "elastic modulus", "youngs modulus"],
    path=["_provider_b_elasticity"],
)
BAND_GAP = FieldSpec(name="band_gap", aliases=["gap"])
SCAN_GAP = FieldSpec(name="scan_band_gap", aliases=["scan band gap"])


def need(query: str, *fields: FieldSpec) -> tuple[str, ...]:
    return need_from_query(query, router_with(*fields).registry.index).sids


def test_field_name_with_underscore_matches_words_in_the_query() -> None:
    assert need("Si band gap", BAND_GAP) == ("band_gap",)


def test_matching_is_case_and_width_insensitive() -> None:
    assert need("ＳＩ BAND-GAP please", BAND_GAP) == ("band_gap",)


def test_hangul_alias_matches_even_with_a_particle_attached() -> None:
    assert need("Si의 탄성계수는?", ELASTIC) == ("elastic_modulus",)


def test_multi_word_alias_matches_as_a_phrase() -> None:
    assert need("what is the Young’s modulus of steel", ELASTIC) == ("elastic_modulus",)
    assert need("young and modulus", ELASTIC) == ()


def test_longest_phrase_wins_over_its_parts() -> None:
    assert need("SCAN band gap of Si", BAND_GAP, SCAN_GAP) == ("scan_band_gap",)


def test_words_only_match_whole() -> None:
    assert need("gapless phases", BAND_GAP) == ()


def test_need_keeps_query_order_without_duplicates() -> None:
    assert need("elastic modulus and band gap and gap", BAND_GAP, ELASTIC) == ("elastic_modulus", "band_gap")


def test_query_without_any_field_has_an_empty_need() -> None:
    assert need("tell me about silicon", BAND_GAP) == ()


def test_explicit_fields_resolve_aliases_to_semantic_ids() -> None:
    index = router_with(BAND_GAP, ELASTIC).registry.index
    assert need_from_fields(["탄성계수", "band_gap"], index).sids == ("elastic_modulus", "band_gap")


def test_unknown_explicit_field_is_kept_so_planning_can_say_so() -> None:
    index = router_with(BAND_GAP).registry.index
    assert need_from_fields(["density"], index).sids == ("density",)


def test_each_semantic_id_keeps_the_surface_that_named_it_first_in_the_query() -> None:
    index = router_with(BAND_GAP, ELASTIC).registry.index
    found = need_from_query("Si의 탄성계수 and elastic modulus, then GAP", index)
    assert list(found.pairs()) == [("elastic_modulus", "탄성계수"), ("band_gap", "gap")]


def test_explicit_fields_keep_the_given_name_as_surface() -> None:
    index = router_with(BAND_GAP, ELASTIC).registry.index
    found = need_from_fields(["Youngs-Modulus", "band_gap"], index)
    assert list(found.pairs()) == [("elastic_modulus", "youngs modulus"), ("band_gap", "band gap")]
