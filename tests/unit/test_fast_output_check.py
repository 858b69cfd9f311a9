"""The compiled output check (jsonschema-rs) answers like the jsonschema path, in linear time."""

from __future__ import annotations

import time
from typing import Any

import pytest

from schemarouter_integrations import EndpointSpec, FieldSpec, SchemaRouter, SchemaValidationError, ToolSpec
from schemarouter_integrations._contracts import fast_check
from schemarouter_integrations._contracts.schemas import (
    compiled_validator,
    response_errors,
    validation_errors,
)

pytestmark = pytest.mark.anyio
needs_rs = pytest.mark.skipif(not fast_check.HAS_FAST_CHECK, reason="jsonschema-rs is not installed")

CATASTROPHIC = "^(a+)+$"
RECORDS = {
    "type": "object",
    "required": ["data"],
    "properties": {
        "data": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"code": {"type": "string", "pattern": CATASTROPHIC}, "n": {"type": "integer"}},
            },
        }
    },
}


def jsonschema_errors(schema: dict[str, Any], instance: Any) -> list[str]:
    return validation_errors(compiled_validator(schema, key=None), instance)


@needs_rs
def test_a_valid_response_is_accepted_by_the_compiled_check() -> None:
    assert fast_check.fast_is_valid(RECORDS, "t:valid", {"data": [{"code": "aaa", "n": 1}]})


@needs_rs
@pytest.mark.timeout(30)  # a backtracking engine would hang here
def test_the_compiled_check_matches_a_catastrophic_pattern_in_linear_time() -> None:
    bad = {"data": [{"code": "a" * 100_000 + "!"}]}
    start = time.perf_counter()
    assert not fast_check.fast_is_valid(RECORDS, "t:catastrophic", bad)
    assert time.perf_counter() - start < 1.0
    assert response_errors(RECORDS, bad, key="t:catastrophic") == jsonschema_errors(RECORDS, bad)


@pytest.mark.parametrize(
    "instance",
    [
        {"data": [{"code": "b"}]},
        {"data": [{"n": "one"}, {"n": 1.5}]},
        {"data": {"code": "a"}},
        {},
        {"data": [{"n": True}]},
        {"data": [{"n": float("nan")}]},
        {"data": [{1: "not a string key"}]},
        {"data": [{"code": {"a", "b"}}]},
    ],
)
def test_invalid_or_unreadable_responses_get_the_jsonschema_messages(instance: Any) -> None:
    assert response_errors(RECORDS, instance, key="t:messages") == jsonschema_errors(RECORDS, instance)


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "string", "pattern": "^\\d+$"},  # Unicode digits in Rust's regex, ASCII in RE2
        {"type": "string", "pattern": "(?i)^ab$"},
        {"type": "string", "format": "ipv4"},  # asserted by the jsonschema path only
        {"type": "object", "patternProperties": {"^\\w+$": {"type": "integer"}}},
    ],
)
def test_schemas_that_could_be_read_differently_stay_on_the_jsonschema_path(schema: dict[str, Any]) -> None:
    key = f"t:{schema}"
    assert not fast_check.fast_is_valid(schema, key, "whatever")
    assert fast_check._CHECKS.get(key) is None and key in fast_check._CHECKS


def test_an_arabic_indic_digit_breaks_an_ascii_digit_pattern_as_before() -> None:
    schema = {"type": "string", "pattern": "^\\d+$"}
    assert response_errors(schema, "\u0661\u0662", key="t:digits") == jsonschema_errors(
        schema, "\u0661\u0662"
    )
    assert response_errors(schema, "\u0661\u0662", key="t:digits") != []


async def test_a_run_refuses_a_response_that_breaks_the_output_schema() -> None:
    spec = ToolSpec(
        name="codes",
        provider="acme",
        endpoints=[
            EndpointSpec(
                name="list",
                read_only=True,
                output_schema=RECORDS,
                records_path=["data"],
                fields=[FieldSpec(name="code")],
            )
        ],
    )
    answers = iter([{"data": [{"code": "aa"}]}, {"data": [{"code": "a" * 50_000 + "!"}]}])

    async def invoker(call: Any) -> Any:
        return next(answers)

    router = SchemaRouter()
    router.register(spec, invoker)
    assert (await router.invoke("codes")).records == [{"code": "aa"}]
    with pytest.raises(SchemaValidationError, match="does not match"):
        await router.invoke("codes")
