"""Routes with equal contract parts share one read-only copy of each part (memory per route)."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import pytest

from schemarouter_integrations import EndpointSpec, FieldSpec, RetryPolicy, SchemaRouter, ToolSpec
from schemarouter_integrations._registry.lexicon import LexicalDocument

_TEXT = "Band gaps of a formula."


def _schema() -> dict[str, Any]:
    return {"type": "object", "properties": {"formula": {"type": "string", "enum": ["Si", "C"]}}}


def _route(router: SchemaRouter, path: str) -> Any:
    route = router.registry.route(path)
    assert route is not None
    return route


def test_two_endpoints_with_equal_input_schemas_share_one_schema_object() -> None:
    first = EndpointSpec("search", input_schema=_schema())
    second = EndpointSpec("lookup", input_schema=_schema())
    assert first.input_schema is second.input_schema


def test_endpoints_with_different_input_schemas_keep_their_own() -> None:
    other = _schema()
    other["properties"]["formula"]["enum"] = ["Si"]
    assert (
        EndpointSpec("a", input_schema=_schema()).input_schema
        is not EndpointSpec("b", input_schema=other).input_schema
    )


def test_a_schema_that_differs_only_in_a_number_type_is_not_shared() -> None:
    one = EndpointSpec("a", input_schema={"type": "integer", "default": 1})
    other = EndpointSpec("b", input_schema={"type": "integer", "default": 1.0})
    assert one.input_schema is not other.input_schema
    assert type(other.model_dump()["input_schema"]["default"]) is float


def test_equal_output_schemas_are_shared() -> None:
    first = EndpointSpec("a", output_schema=_schema())
    second = EndpointSpec("b", output_schema=_schema())
    assert first.output_schema is second.output_schema


def test_an_interned_schema_cannot_be_changed_through_one_route() -> None:
    first = EndpointSpec("search", input_schema=_schema())
    second = EndpointSpec("lookup", input_schema=_schema())
    with pytest.raises(TypeError, match="interned"):
        first.input_schema["type"] = "array"
    with pytest.raises(TypeError, match="interned"):
        first.input_schema["properties"]["formula"]["enum"].append("Ge")
    with pytest.raises(TypeError, match="interned"):
        first.input_schema["properties"].pop("formula")
    assert second.input_schema == _schema()


def test_the_callers_schema_is_not_frozen_and_changing_it_later_leaves_the_contract_alone() -> None:
    given = _schema()
    endpoint = EndpointSpec("search", input_schema=given)
    given["properties"]["formula"]["enum"].append("Ge")
    assert endpoint.input_schema == _schema()


def test_a_deep_copy_of_an_interned_schema_is_plain_and_mutable() -> None:
    schema = EndpointSpec("search", input_schema=_schema()).input_schema
    copied = copy.deepcopy(schema)
    copied["properties"]["formula"]["enum"].append("Ge")
    assert type(copied) is dict
    assert type(copied["properties"]["formula"]["enum"]) is list
    assert schema == _schema()


def test_an_interned_schema_reads_as_plain_json_data() -> None:
    endpoint = EndpointSpec("search", input_schema=_schema())
    assert json.loads(json.dumps(endpoint.input_schema)) == _schema()
    assert repr(endpoint.input_schema) == repr(_schema())
    dumped = endpoint.model_dump()["input_schema"]
    assert dumped == _schema()
    assert type(dumped) is dict


def test_sharing_leaves_fingerprints_as_they_were() -> None:
    first = EndpointSpec("search", input_schema=_schema())
    again = EndpointSpec("search", input_schema=_schema())
    assert first.fingerprint == again.fingerprint
    assert pickle.loads(pickle.dumps(first)).fingerprint == first.fingerprint


def test_a_pickled_endpoint_comes_back_equal_with_a_read_only_schema() -> None:
    endpoint = EndpointSpec("search", input_schema=_schema())
    back = pickle.loads(pickle.dumps(endpoint))
    assert back == endpoint
    with pytest.raises(TypeError):
        back.input_schema["type"] = "array"


def test_equal_retry_policies_are_one_object() -> None:
    first = EndpointSpec("a", retry=RetryPolicy(max_attempts=3))
    second = EndpointSpec("b", retry=RetryPolicy(max_attempts=3))
    assert first.retry is second.retry
    assert EndpointSpec("c", retry=RetryPolicy(max_attempts=2)).retry is not first.retry


def test_contracts_given_the_same_names_share_one_read_only_fields_set() -> None:
    first = EndpointSpec("a", read_only=True)
    second = EndpointSpec("b", read_only=True)
    assert first.model_fields_set is second.model_fields_set
    assert first.model_fields_set == {"name", "read_only"}
    with pytest.raises(TypeError):
        first.model_fields_set.add("description")
    assert first.model_dump(exclude_unset=True) == {"name": "a", "read_only": True}


def test_a_copy_with_changes_gets_the_shared_parts_again() -> None:
    endpoint = EndpointSpec("search", input_schema=_schema())
    changed = endpoint.model_copy(update={"name": "other"})
    assert changed.input_schema is endpoint.input_schema
    assert changed.name == "other"


def test_the_argument_names_of_a_shared_schema_are_one_set() -> None:
    first = EndpointSpec("a", input_schema=_schema())
    second = EndpointSpec("b", input_schema=_schema())
    assert first.argument_names == frozenset({"formula"})
    assert first.argument_names is second.argument_names


def test_callable_routes_of_one_signature_share_their_input_schema() -> None:
    router = SchemaRouter()

    def first(formula: str = "Si") -> list[dict[str, Any]]:
        return []

    def second(formula: str = "Si") -> list[dict[str, Any]]:
        return []

    router.add_callable(first, name="one", read_only=True)
    router.add_callable(second, name="two", read_only=True)
    one, two = _route(router, "one.first"), _route(router, "two.second")
    assert one.endpoint.input_schema is two.endpoint.input_schema
    assert one.argument_names is two.argument_names


def test_routes_whose_texts_have_the_same_words_share_one_lexical_document() -> None:
    router = SchemaRouter()
    for name in ("one", "two"):
        router.register(ToolSpec(name, endpoints=[EndpointSpec("search", description=_TEXT)]))
    assert _route(router, "one.search").lexical is _route(router, "two.search").lexical
    other = LexicalDocument.of("search", [], "Band gaps of a structure.")
    assert other is not _route(router, "one.search").lexical


def test_a_shared_lexical_document_scores_each_route() -> None:
    router = SchemaRouter()
    for name in ("one", "two"):
        router.register(ToolSpec(name, endpoints=[EndpointSpec("search", description=_TEXT)]))
    scores = router.registry.lexicon.scores([("band",), ("gaps", "gap")])
    assert set(scores) == {"one.search", "two.search"}
    assert scores["one.search"] == scores["two.search"] > 0


def test_fields_with_equal_lists_share_them_read_only() -> None:
    first = FieldSpec("band_gap", aliases=["gap"])
    second = FieldSpec("band_gap", aliases=["gap"], description="other")
    assert first.aliases is second.aliases
    assert first.path is second.path
    assert first.result_path is second.result_path
    with pytest.raises(TypeError, match="interned"):
        first.aliases.append("bandgap")
    assert second.aliases == ["gap"]


def test_equal_field_schemas_are_shared() -> None:
    first = FieldSpec("band_gap", json_schema={"type": "number"})
    second = FieldSpec("energy", json_schema={"type": "number"})
    assert first.json_schema is second.json_schema


def test_schemas_written_in_another_key_order_keep_their_own_order() -> None:
    def schema(order: list[str]) -> dict[str, object]:
        return {"type": "object", "properties": {name: {"type": "string"} for name in order}}

    first = EndpointSpec(name="first", read_only=True, input_schema=schema(["b", "a"]))
    second = EndpointSpec(name="second", read_only=True, input_schema=schema(["a", "b"]))
    assert list(first.input_schema["properties"]) == ["b", "a"]
    assert list(second.input_schema["properties"]) == ["a", "b"]
