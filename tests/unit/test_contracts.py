"""Contracts are immutable, validate themselves and are fingerprinted over everything."""

from __future__ import annotations

import pickle
import re
from typing import Any

import pydantic
import pytest

from schemarouter_integrations import (
    CooldownPolicy,
    EndpointSpec,
    FieldSpec,
    PlanRequest,
    RetryPolicy,
    ServerProjectionSpec,
    ToolSpec,
)
from schemarouter_integrations._contracts import canonical_json
from schemarouter_integrations._contracts.endpoint import EndpointSpecOptions, ToolSpecOptions
from schemarouter_integrations._contracts.fields import FieldSpecOptions, ServerProjectionSpecOptions
from schemarouter_integrations._planning.models import PlanRequestOptions


def make_tool(**changes: object) -> ToolSpec:
    base: dict[str, object] = {
        "name": "mp_api",
        "provider": "materials_project",
        "access_mode": "openapi",
        "endpoints": [EndpointSpec(name="search", fields=[FieldSpec(name="band_gap")], read_only=True)],
    }
    base.update(changes)
    return ToolSpec(**base)  # type: ignore[arg-type]


def test_field_defaults_fill_semantic_id_path_and_result_path() -> None:
    field = FieldSpec(name="band_gap")
    assert field.semantic_id == "band_gap"
    assert field.path == ["band_gap"]
    assert field.result_path == ["band_gap"]


def test_contracts_are_immutable() -> None:
    tool = make_tool()
    with pytest.raises(pydantic.ValidationError):
        tool.name = "other"  # type: ignore[misc]


def test_fingerprint_is_sha256_and_stable() -> None:
    assert make_tool().fingerprint == make_tool().fingerprint
    assert make_tool().fingerprint.startswith("sha256:")
    assert len(make_tool().fingerprint) == len("sha256:") + 64


@pytest.mark.parametrize(
    "change",
    [
        {"provider": "oqmd"},
        {"access_mode": "optimade"},
        {"description": "new words"},
        {"endpoints": [EndpointSpec(name="search", fields=[FieldSpec(name="band_gap")], read_only=False)]},
        {"endpoints": [EndpointSpec(name="search", fields=[FieldSpec(name="band_gap", aliases=["gap"])])]},
        {"endpoints": [EndpointSpec(name="search", fields=[FieldSpec(name="band_gap")], keywords=["gaps"])]},
    ],
)
def test_any_contract_change_changes_the_fingerprint(change: dict[str, object]) -> None:
    assert make_tool(**change).fingerprint != make_tool().fingerprint


def test_endpoint_fingerprint_changes_with_the_endpoint_only() -> None:
    one = EndpointSpec(name="search", cost_units=1.0)
    two = EndpointSpec(name="search", cost_units=2.0)
    assert one.fingerprint != two.fingerprint
    assert EndpointSpec(name="search").fingerprint == EndpointSpec(name="search").fingerprint


def test_canonical_json_sorts_keys_and_is_compact() -> None:
    assert canonical_json({"b": 1, "a": [1, 2]}) == '{"a":[1,2],"b":1}'


def test_duplicate_endpoint_names_are_refused_with_a_clear_message() -> None:
    with pytest.raises(pydantic.ValidationError, match="declares endpoint\\(s\\) twice: \\['search'\\]"):
        make_tool(endpoints=[EndpointSpec(name="search"), EndpointSpec(name="search")])


def test_duplicate_field_names_are_refused_with_a_clear_message() -> None:
    with pytest.raises(pydantic.ValidationError, match="declares field\\(s\\) twice"):
        EndpointSpec(name="search", fields=[FieldSpec(name="band_gap"), FieldSpec(name="band_gap")])


def test_invalid_input_schema_is_refused_naming_the_endpoint() -> None:
    with pytest.raises(pydantic.ValidationError, match="input_schema of endpoint 'search'"):
        EndpointSpec(name="search", input_schema={"type": "not-a-type"})


def test_endpoint_keywords_default_to_none_and_must_be_short_texts() -> None:
    assert EndpointSpec(name="search").keywords == []
    with pytest.raises(pydantic.ValidationError, match="keywords"):
        EndpointSpec(name="search", keywords=["ok", ""])
    with pytest.raises(pydantic.ValidationError, match="keywords"):
        EndpointSpec(name="search", keywords=["x" * 201])


def test_an_invalid_schema_nested_deep_in_a_valid_one_is_refused_at_its_place() -> None:
    leaf = {"type": "object", "properties": {"n": {"type": "integer", "minimum": "zero"}}}
    schema = {
        "type": "object",
        "properties": {"a": {"type": "array", "items": {"anyOf": [leaf, {"type": "null"}]}}},
    }
    with pytest.raises(pydantic.ValidationError, match="at properties/a/items/anyOf/0/properties/n/minimum"):
        EndpointSpec(name="search", input_schema=schema)


def test_invalid_output_schema_is_refused() -> None:
    with pytest.raises(pydantic.ValidationError, match="output_schema of endpoint 'search'"):
        EndpointSpec(name="search", output_schema={"properties": 5})


def test_field_map_key_that_is_no_field_is_refused() -> None:
    with pytest.raises(pydantic.ValidationError, match=r"field_map .* names no field: \['elastic_modulus'\]"):
        EndpointSpec(
            name="search",
            fields=[FieldSpec(name="band_gap")],
            projection=ServerProjectionSpec(parameter="response_fields", field_map={"elastic_modulus": "x"}),
        )


def test_tool_name_with_a_dot_is_refused() -> None:
    with pytest.raises(pydantic.ValidationError, match=re.escape("must not contain '.'")):
        make_tool(name="mp.api")


def test_projection_maps_canonical_names_to_wire_names() -> None:
    projection = ServerProjectionSpec(
        parameter="response_fields", field_map={"elastic_modulus": "_provider_b_elasticity"}, always=["id"]
    )
    assert projection.parameters_for(("elastic_modulus", "formula")) == {
        "response_fields": "id,_provider_b_elasticity,formula"
    }


def test_cooldown_policy_refuses_max_below_base() -> None:
    with pytest.raises(pydantic.ValidationError, match="max_seconds must be >= base_seconds"):
        CooldownPolicy(base_seconds=60, max_seconds=30)


def test_retry_policy_needs_at_least_one_attempt() -> None:
    with pytest.raises(pydantic.ValidationError):
        RetryPolicy(max_attempts=0)


def test_copy_with_changes_is_validated_and_fingerprinted_anew() -> None:
    tool = make_tool()
    changed = tool.model_copy(update={"provider": "oqmd"})
    assert changed.fingerprint == make_tool(provider="oqmd").fingerprint != tool.fingerprint
    with pytest.raises(pydantic.ValidationError):
        tool.model_copy(update={"name": "a.b"})


# -- the documented positional first parameter --------------------------------------------------
FIRST_POSITIONAL: list[tuple[type[Any], str, dict[str, object]]] = [
    (FieldSpec, "name", {}),
    (ServerProjectionSpec, "parameter", {}),
    (EndpointSpec, "name", {}),
    (ToolSpec, "name", {"endpoints": [EndpointSpec(name="search")]}),
    (PlanRequest, "query", {}),
]
FIRST_IDS = [model.__name__ for model, _, _ in FIRST_POSITIONAL]


@pytest.mark.parametrize(("model", "first", "extra"), FIRST_POSITIONAL, ids=FIRST_IDS)
def test_first_parameter_given_both_positionally_and_by_keyword_is_refused(
    model: type[Any], first: str, extra: dict[str, object]
) -> None:
    with pytest.raises(TypeError, match=f"multiple values for argument '{first}'"):
        model("one", **{first: "two"}, **extra)


@pytest.mark.parametrize(("model", "first", "extra"), FIRST_POSITIONAL, ids=FIRST_IDS)
def test_only_the_first_parameter_may_be_positional(
    model: type[Any], first: str, extra: dict[str, object]
) -> None:
    with pytest.raises(TypeError, match="positional argument"):
        model("one", "two", **extra)


@pytest.mark.parametrize(("model", "first", "extra"), FIRST_POSITIONAL, ids=FIRST_IDS)
def test_missing_first_parameter_is_still_a_validation_error(
    model: type[Any], first: str, extra: dict[str, object]
) -> None:
    with pytest.raises(pydantic.ValidationError, match=f"{first}\n  Field required"):
        model(**extra)


@pytest.mark.parametrize(
    ("model", "options"),
    [
        (FieldSpec, FieldSpecOptions),
        (ServerProjectionSpec, ServerProjectionSpecOptions),
        (EndpointSpec, EndpointSpecOptions),
        (ToolSpec, ToolSpecOptions),
        (PlanRequest, PlanRequestOptions),
    ],
    ids=FIRST_IDS,
)
def test_typed_keyword_options_name_every_field_after_the_first(
    model: type[pydantic.BaseModel], options: type[dict[str, object]]
) -> None:
    declared = options.__required_keys__ | options.__optional_keys__  # type: ignore[attr-defined]
    assert set(declared) == set(list(model.model_fields)[1:])


def test_a_positionally_built_contract_survives_validation_copy_and_pickling() -> None:
    tool = ToolSpec("mp_api", provider="mp", endpoints=[EndpointSpec("search", fields=[FieldSpec("gap")])])
    copied = tool.model_copy(update={"description": "band gaps"})
    revived = pickle.loads(pickle.dumps(tool))
    assert ToolSpec.model_validate(tool.model_dump()) == tool
    assert (copied.name, copied.description, copied.endpoints) == ("mp_api", "band gaps", tool.endpoints)
    assert (revived, revived.fingerprint) == (tool, tool.fingerprint)


# -- lists --------------------------------------------------------------------------------------
def test_list_attributes_accept_tuples_and_hold_lists() -> None:
    field = FieldSpec("band_gap", aliases=("gap",), path=("_p", "band_gap"))
    endpoint = EndpointSpec("search", fields=(field,), records_path=("data",))
    assert (field.aliases, field.path, endpoint.fields, endpoint.records_path) == (
        ["gap"],
        ["_p", "band_gap"],
        [field],
        ["data"],
    )


def test_fingerprint_is_the_same_whether_lists_or_tuples_were_given() -> None:
    as_lists = make_tool(
        endpoints=[EndpointSpec(name="search", fields=[FieldSpec(name="g", path=["a", "b"])])]
    )
    as_tuples = make_tool(
        endpoints=(EndpointSpec(name="search", fields=(FieldSpec(name="g", path=("a", "b")),)),)
    )
    assert as_lists.fingerprint == as_tuples.fingerprint
