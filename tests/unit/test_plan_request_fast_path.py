"""A PlanRequest built from plain values skips pydantic and is the request validation gives."""

from __future__ import annotations

import math
from typing import Any

import pytest

from schemarouter_integrations import CachePolicy, HedgePolicy, PlanRequest
from schemarouter_integrations._contracts.base import NOT_GIVEN, Contract
from schemarouter_integrations._framework.options import ToolOptions
from schemarouter_integrations._planning.json_data import request_fields
from schemarouter_integrations.errors import InvalidContractError

PLAIN: list[dict[str, Any]] = [
    {},
    {"arguments": {"formula": "Si"}},
    {"arguments": {"formula": "Si", "limit": 2, "gap": 1.5, "stable": True, "note": None}},
    {"arguments": {"elements": ["Si", "O"], "range": {"min": 0.5, "max": [1, -0.0]}}},
    {"arguments": {"formula": "Fe₂O₃", "nested": {"naïve": "ß"}}},
    {"arguments": {"big": 2**63, "small": -(2**63), "tiny": 5e-324}},
    {"preferred_tools": ("mp_api",), "fields": ("band_gap",), "fallback_scope": "cross_provider"},
    {"preferred_tools": ["a", "b"], "fields": None, "max_fallbacks": 0},
    {"fields": [], "max_fallbacks": 8, "fallback_scope": "same_provider"},
    {"hedge": HedgePolicy(after_seconds=0.5), "cache": CachePolicy(ttl_seconds=60)},
    {"hedge": None, "cache": None, "arguments": {}},
    {"max_records": 5},
]


def validated(query: Any, options: dict[str, Any]) -> PlanRequest:
    """The request through pydantic validation, as every request was built before the fast path."""
    request = PlanRequest.__new__(PlanRequest)
    Contract.__init__(request, query=query, **options)
    return request


def failure(build: Any) -> str:
    with pytest.raises(InvalidContractError) as caught:
        build()
    return str(caught.value)


@pytest.mark.parametrize("options", PLAIN)
def test_a_request_of_plain_values_takes_the_fast_path(options: dict[str, Any]) -> None:
    assert request_fields("band gap of Si", options) is not None


@pytest.mark.parametrize("options", PLAIN)
def test_a_fast_request_holds_what_validation_gives(options: dict[str, Any]) -> None:
    fast = PlanRequest("band gap of Si", **options)
    full = validated("band gap of Si", options)
    assert fast.__dict__ == full.__dict__
    assert list(fast.__dict__) == list(full.__dict__)
    assert [type(v) for v in fast.__dict__.values()] == [type(v) for v in full.__dict__.values()]
    assert fast.model_fields_set == full.model_fields_set and type(fast.model_fields_set) is type(
        full.model_fields_set
    )
    assert fast.__pydantic_private__ == full.__pydantic_private__
    assert fast.__pydantic_extra__ == full.__pydantic_extra__
    assert fast == full and repr(fast) == repr(full)
    assert fast.model_dump(mode="json") == full.model_dump(mode="json")
    assert fast.arguments_key == full.arguments_key


def test_a_fast_request_copies_the_callers_arguments_at_every_depth() -> None:
    arguments: dict[str, Any] = {"elements": ["Si"], "range": {"max": [1]}}
    request = PlanRequest("band gap", arguments=arguments)
    arguments["elements"].append("O")
    arguments["range"]["max"].append(2)
    arguments["extra"] = 1
    assert request.arguments == {"elements": ["Si"], "range": {"max": [1]}}


def test_a_fast_request_copies_the_callers_lists_of_names() -> None:
    tools = ["mp_api"]
    request = PlanRequest("band gap", preferred_tools=tools)
    tools.append("other")
    assert request.preferred_tools == ["mp_api"]


class Text(str):
    pass


VALID_BUT_NOT_PLAIN: list[tuple[Any, dict[str, Any]]] = [
    (Text("band gap"), {}),
    ("band gap", {"arguments": {"formula": Text("Si")}}),
    ("band gap", {"preferred_tools": [Text("mp_api")]}),
    ("band gap", {"max_fallbacks": True}),
    ("band gap", {"max_fallbacks": 2.0}),
    ("band gap", {"max_records": True}),
    ("band gap", {"arguments": {"big": 10**30}}),
    ("band gap", {"fields": {"band_gap"}}),
]


@pytest.mark.parametrize(("query", "options"), VALID_BUT_NOT_PLAIN)
def test_values_valid_only_after_conversion_are_validated_in_full(
    query: Any, options: dict[str, Any]
) -> None:
    assert request_fields(query, options) is None
    assert PlanRequest(query, **options).__dict__ == validated(query, options).__dict__


def test_a_subclass_of_plan_request_is_validated_in_full() -> None:
    class Checked(PlanRequest):
        def model_post_init(self, context: Any, /) -> None:
            super().model_post_init(context)
            object.__setattr__(self, "__pydantic_private__", {"seen": True})

    assert Checked("band gap").__pydantic_private__ == {"seen": True}


BAD: list[tuple[Any, dict[str, Any]]] = [
    (None, {}),
    (3, {}),
    ("band gap", {"arguments": {"gap": math.nan}}),
    ("band gap", {"arguments": {"gap": math.inf}}),
    ("band gap", {"arguments": {"gap": [-math.inf]}}),
    ("band gap", {"arguments": {"formula": "Si\udc80"}}),
    ("band gap", {"arguments": {"nested": {"Si\udc80": 1}}}),
    ("band gap", {"arguments": {"nested": ["Si\ud800"]}}),
    ("band gap", {"arguments": {"": "Si"}}),
    ("band gap", {"arguments": {1: "Si"}}),
    ("band gap", {"arguments": {"when": b"Si"}}),
    ("band gap", {"arguments": {"pair": ("Si", "O")}}),
    ("band gap", {"arguments": {"elements": {"Si"}}}),
    ("band gap", {"arguments": {"huge": 10**5000}}),
    ("band gap", {"arguments": None}),
    ("band gap", {"arguments": [("formula", "Si")]}),
    ("band gap", {"preferred_tools": "mp_api"}),
    ("band gap", {"preferred_tools": [1]}),
    ("band gap", {"fields": "band_gap"}),
    ("band gap", {"fallback_scope": "everywhere"}),
    ("band gap", {"max_fallbacks": 9}),
    ("band gap", {"max_fallbacks": -1}),
    ("band gap", {"max_records": 0}),
    ("band gap", {"hedge": 0.5}),
    ("band gap", {"cache": 60}),
    ("band gap", {"budget": 1}),
]


@pytest.mark.parametrize(("query", "options"), BAD)
def test_bad_input_is_left_to_validation(query: Any, options: dict[str, Any]) -> None:
    assert request_fields(query, options) is None


@pytest.mark.parametrize(("query", "options"), BAD)
def test_bad_input_gets_the_same_typed_error_as_full_validation(query: Any, options: dict[str, Any]) -> None:
    assert failure(lambda: PlanRequest(query, **options)) == failure(lambda: validated(query, options))


def test_a_deeply_nested_argument_is_left_to_validation() -> None:
    deep: Any = "Si"
    for _ in range(40):
        deep = [deep]
    assert request_fields("band gap", {"arguments": {"deep": deep}}) is None
    assert PlanRequest("band gap", arguments={"deep": deep}).arguments == {"deep": deep}


def test_a_tool_request_is_the_request_validation_gives() -> None:
    options = ToolOptions.from_settings(
        fallback_scope="cross_provider", max_fallbacks=2, preferred_tools=["mp_api"], fields=["band_gap"]
    )
    request = options.request("band gap of Si", {"formula": "Si", "limit": None})
    expected = validated(
        "band gap of Si",
        {
            "arguments": {"formula": "Si"},
            "preferred_tools": ("mp_api",),
            "fields": ("band_gap",),
            "fallback_scope": "cross_provider",
            "max_fallbacks": 2,
        },
    )
    assert request.__dict__ == expected.__dict__ and request.model_fields_set == expected.model_fields_set


def test_the_fast_path_knows_every_check_of_plan_request() -> None:
    """A validator or post-init step added to PlanRequest must be taught to request_fields
    (or PlanRequest must stop taking the fast path): this fails until then."""
    decorators = PlanRequest.__pydantic_decorators__
    assert set(decorators.field_validators) == {"_check_arguments", "_short_enough"}  # both known to it
    assert not decorators.model_validators and not decorators.validators and not decorators.root_validators
    assert PlanRequest.model_post_init is Contract.model_post_init
    fields = "query arguments preferred_tools fields fallback_scope max_fallbacks hedge cache max_records"
    assert list(PlanRequest.model_fields) == fields.split()
    assert not PlanRequest.__private_attributes__


def test_a_request_without_a_query_gets_the_same_error_as_before() -> None:
    no_query = failure(lambda: PlanRequest(arguments={"formula": "Si"}))  # type: ignore[call-arg]
    assert request_fields(NOT_GIVEN, {"arguments": {"formula": "Si"}}) is None
    assert "query" in no_query and "Field required" in no_query


def test_a_query_over_the_limit_leaves_the_fast_path_for_the_full_check() -> None:
    from schemarouter_integrations._planning.json_data import MAX_QUERY_CHARS

    assert request_fields("a" * MAX_QUERY_CHARS, {}) is not None
    assert request_fields("a" * (MAX_QUERY_CHARS + 1), {}) is None
