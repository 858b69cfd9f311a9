"""The faces read a model's arguments in the tool's own form before checking them: a source's
own ``query`` is shown as ``query_2`` and taken by its wire name inside ``filters``; one value
where only a list is taken, an enum member in another case, a name in another case (when one
name alone matches) are read as the tool declares; anything else is refused as before."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from schemarouter_integrations import EndpointSpec, FieldSpec, SchemaRouter, ToolSpec
from schemarouter_integrations._framework import ModelArguments, ToolSurface

SOFTWARE = {"type": "string", "enum": ["Dataverse", "DSpace"]}
PROPERTIES: dict[str, Any] = {
    "query": {"type": "string", "description": "Search terms"},
    "symbols": {"type": "array", "items": {"type": "string"}},
    "software": SOFTWARE,
    "band-gap": {"type": "number"},
    "formula": {"type": "string"},
}


def surface(properties: dict[str, Any]) -> ModelArguments:
    router = SchemaRouter()
    endpoint = EndpointSpec(
        name="search",
        read_only=True,
        input_schema={"type": "object", "properties": properties},
        fields=[FieldSpec(name="title")],
    )
    router.register(ToolSpec(name="src", provider="p", endpoints=[endpoint]))
    return ToolSurface(router).arguments


@pytest.fixture
def arguments() -> ModelArguments:
    return surface(PROPERTIES)


def canonical(arguments: ModelArguments, values: dict[str, Any]) -> dict[str, Any]:
    return arguments.to_canonical(arguments.checked(values))


def test_a_sources_query_is_shown_as_query_2_saying_whose_it_is(arguments: ModelArguments) -> None:
    properties = arguments.json_schema()["properties"]
    assert properties["query"]["type"] == "string"  # the question
    assert "own `query` parameter" in properties["query_2"]["description"]


def test_the_question_never_fills_the_sources_query(arguments: ModelArguments) -> None:
    assert canonical(arguments, {"query": "works on graphene"}) == {}


def test_the_sources_query_is_taken_by_its_shown_name(arguments: ModelArguments) -> None:
    assert canonical(arguments, {"query": "works", "query_2": "graphene"}) == {"query": "graphene"}


def test_the_sources_query_is_taken_by_its_wire_name_inside_filters(arguments: ModelArguments) -> None:
    values = {"query": "works", "filters": {"query": "graphene"}}
    assert canonical(arguments, values) == {"query": "graphene"}


def test_a_sources_filters_argument_leaves_the_filters_object_alone() -> None:
    arguments = surface({"filters": {"type": "string"}, "formula": {"type": "string"}})
    values = {"query": "q", "filters": {"formula": "Si"}}
    assert canonical(arguments, values) == {"formula": "Si"}


def test_one_value_for_a_list_is_a_list_at_the_top_and_in_filters(arguments: ModelArguments) -> None:
    assert canonical(arguments, {"query": "q", "symbols": "BRCA1"}) == {"symbols": ["BRCA1"]}
    assert canonical(arguments, {"query": "q", "filters": {"symbols": "BRCA1"}}) == {"symbols": ["BRCA1"]}


def test_an_enum_member_in_another_case_is_the_member(arguments: ModelArguments) -> None:
    assert canonical(arguments, {"query": "q", "software": "dataverse"}) == {"software": "Dataverse"}
    assert canonical(arguments, {"query": "q", "filters": {"software": "DSPACE"}}) == {"software": "DSpace"}


def test_an_enum_value_no_member_matches_is_refused_naming_the_members(arguments: ModelArguments) -> None:
    with pytest.raises(ValidationError, match="'Dataverse'"):
        arguments.checked({"query": "q", "filters": {"software": "Zenodo"}})


def test_a_name_in_another_case_is_the_one_name_it_matches(arguments: ModelArguments) -> None:
    assert canonical(arguments, {"query": "q", "Formula": "Si"}) == {"formula": "Si"}
    assert canonical(arguments, {"query": "q", "filters": {"FORMULA": "Si"}}) == {"formula": "Si"}


def test_a_name_two_names_match_ignoring_case_is_refused() -> None:
    arguments = surface({"drug_id": {"type": "string"}, "DRUG_ID": {"type": "string"}})
    with pytest.raises(ValidationError, match="no data source takes a filter named 'Drug_Id'"):
        arguments.checked({"query": "q", "filters": {"Drug_Id": "CHEMBL25"}})
    with pytest.raises(ValidationError, match="Extra inputs"):
        arguments.checked({"query": "q", "Drug_Id": "CHEMBL25"})


def test_a_misspelt_filter_is_answered_with_the_name_the_model_is_shown(arguments: ModelArguments) -> None:
    with pytest.raises(ValidationError) as caught:
        arguments.checked({"query": "q", "filters": {"band-gp": 1.0}})
    message = str(caught.value)
    assert "did you mean 'band_gap'" in message
    assert "'band-gap'" not in message
