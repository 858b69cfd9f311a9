"""A value a model writes reaches the route in the route's own form when nothing is lost: one
value where the route takes a list, an enum member in another case; anything else is left
for the schema to refuse as before."""

from __future__ import annotations

from typing import Any

from schemarouter_integrations import EndpointSpec, PlanRequest, SchemaRouter, ToolSpec
from schemarouter_integrations._contracts.coercion import coerced_arguments, coerced_value

TEXTS = {"type": "array", "items": {"type": "string"}}
NUMBERS = {"type": "array", "items": {"type": "integer"}}
SOFTWARE = {"type": "string", "enum": ["Dataverse", "DSpace", "dLibra"]}


def coerced(declared: dict[str, Any], given: Any) -> Any:
    return coerced_arguments({"type": "object", "properties": {"x": declared}}, {"x": given})["x"]


def test_one_text_where_the_route_takes_a_list_is_a_list_of_it() -> None:
    assert coerced(TEXTS, "BRCA1") == ["BRCA1"]


def test_one_value_is_read_as_the_lists_item_type() -> None:
    assert coerced(NUMBERS, "9606") == [9606]
    assert coerced(TEXTS, 9606) == ["9606"]


def test_a_comma_in_one_text_is_never_taken_for_a_separator() -> None:
    assert coerced(TEXTS, "BRCA1,TP53") == ["BRCA1,TP53"]


def test_a_text_the_route_takes_as_text_or_list_stays_text() -> None:
    joined = {"anyOf": [{"type": "string"}, TEXTS], "x-list-separator": ","}
    assert coerced(joined, "Si,O") == "Si,O"


def test_one_value_the_lists_items_refuse_is_left_for_the_schema() -> None:
    assert coerced(NUMBERS, "many") == "many"
    assert coerced({"type": "array", "items": {"type": "string", "enum": ["a", "b"]}}, "c") == "c"


def test_an_object_where_the_route_takes_a_list_is_left_as_it_is() -> None:
    assert coerced({"type": "array", "items": {"type": "object"}}, {"a": 1}) == {"a": 1}


def test_a_nullable_list_takes_one_value_too() -> None:
    nullable = {"anyOf": [TEXTS, {"type": "null"}]}
    assert coerced(nullable, "dataset") == ["dataset"]


def test_an_enum_member_in_another_case_is_the_member() -> None:
    assert coerced(SOFTWARE, "dataverse") == "Dataverse"
    assert coerced(SOFTWARE, "DSPACE") == "DSpace"


def test_an_enum_member_is_matched_inside_a_list_and_in_one_value_for_a_list() -> None:
    listed = {"type": "array", "items": SOFTWARE}
    assert coerced(listed, ["dataverse", "dspace"]) == ["Dataverse", "DSpace"]
    assert coerced(listed, "dataverse") == ["Dataverse"]


def test_a_case_that_matches_two_members_is_left_as_it_is() -> None:
    twins = {"type": "string", "enum": ["ASC", "asc", "desc"]}
    assert coerced(twins, "Asc") == "Asc"


def test_an_enum_beside_free_text_is_never_rewritten() -> None:
    open_text = {"anyOf": [SOFTWARE, {"type": "string"}]}
    assert coerced(open_text, "dataverse") == "dataverse"


def test_a_value_no_member_matches_is_left_for_the_schema() -> None:
    assert coerced(SOFTWARE, "Zenodo") == "Zenodo"


def test_a_property_the_schema_does_not_declare_is_left_as_it_is() -> None:
    assert coerced_arguments({"properties": {}}, {"y": "1"}) == {"y": "1"}
    assert coerced_value({}, "1") == "1"


def reason(declared: dict[str, Any], given: Any) -> str | None:
    from schemarouter_integrations._contracts.schemas import argument_problem, compiled_validator

    schema = {"type": "object", "properties": {"x": declared}}
    return argument_problem(compiled_validator(schema), coerced_arguments(schema, {"x": given}))


def test_a_value_of_the_wrong_kind_still_reads_as_its_kind() -> None:
    assert reason(NUMBERS, "many") == "argument 'x' is a string; this route takes a list"


def test_a_value_of_a_kind_the_route_takes_is_refused_for_its_real_reason() -> None:
    sort = {"anyOf": [{"type": "string", "pattern": "^[a-z_]+$"}, TEXTS]}
    assert reason(sort, "nsites desc") == "x: 'nsites desc' does not match '^[a-z_]+$'"


def test_an_enum_value_no_member_matches_names_the_members() -> None:
    nullable = {"anyOf": [SOFTWARE, {"type": "null"}]}
    found = reason(nullable, "Zenodo")
    assert found is not None and "'Zenodo' is not one of ['Dataverse', 'DSpace', 'dLibra']" in found


TWINS = {
    "type": "object",
    "properties": {"drug_id": {"type": "string"}, "DRUG_ID": {"type": "string"}},
    "required": ["drug_id", "DRUG_ID"],
}


def test_a_value_for_one_of_two_names_differing_only_in_case_fills_the_other() -> None:
    # generated documents declare one value twice: ``DRUG_ID`` in the path, ``drug_id`` in the query
    assert coerced_arguments(TWINS, {"DRUG_ID": "CHEMBL1201583"}) == {
        "DRUG_ID": "CHEMBL1201583",
        "drug_id": "CHEMBL1201583",
    }


def test_both_names_given_keep_their_own_values() -> None:
    given = {"DRUG_ID": "CHEMBL1", "drug_id": "CHEMBL2"}
    assert coerced_arguments(TWINS, given) == given


def test_a_route_declaring_one_value_twice_answers_with_one_of_them() -> None:
    router = SchemaRouter()
    endpoint = EndpointSpec(name="getDrugByID", description="Get drug.", input_schema=TWINS, read_only=True)
    router.register(ToolSpec(name="targets", access_mode="openapi", endpoints=[endpoint]))
    plan = router.plan(PlanRequest(query="the drug CHEMBL1201583", arguments={"DRUG_ID": "CHEMBL1201583"}))
    assert plan.primary is not None
    assert plan.primary.arguments == {"DRUG_ID": "CHEMBL1201583", "drug_id": "CHEMBL1201583"}
