"""Malformed contracts are refused when they are built, with a message naming the problem.

A contract that gets through must never make planning or validation crash later, fetch
anything, or lose a value when records are projected.
"""

from __future__ import annotations

import math
import urllib.request
from typing import Any

import httpx
import pytest
from pydantic import ValidationError

from schemarouter_integrations import (
    CooldownPolicy,
    EndpointSpec,
    FieldSpec,
    PlanRequest,
    RegistrationError,
    RetryPolicy,
    SchemaRouter,
    ToolSpec,
)
from tests.support.seed import RECORDS, FakeInvoker, band_gap, mp_api


def endpoint_with(input_schema: dict[str, Any]) -> EndpointSpec:
    return EndpointSpec(name="search", read_only=True, input_schema=input_schema, fields=[band_gap()])


def nested(depth: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object"}
    inner = schema
    for _ in range(depth):
        inner["properties"] = {"child": {"type": "object"}}
        inner = inner["properties"]["child"]
    return schema


def test_a_reference_to_nowhere_is_refused_naming_the_reference() -> None:
    schema = {"type": "object", "properties": {"formula": {"$ref": "#/$defs/missing"}}}
    with pytest.raises(ValidationError, match=r"\$ref '#/\$defs/missing' does not resolve"):
        endpoint_with(schema)


def test_a_reference_cycle_that_never_descends_into_a_value_is_refused() -> None:
    schema = {
        "$defs": {"a": {"allOf": [{"$ref": "#/$defs/b"}]}, "b": {"not": {"$ref": "#/$defs/a"}}},
        "type": "object",
        "properties": {"formula": {"$ref": "#/$defs/a"}},
    }
    with pytest.raises(ValidationError, match="closes a cycle that never descends"):
        endpoint_with(schema)


def test_a_recursive_schema_that_descends_into_the_value_plans_and_validates() -> None:
    tree = {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/t"}}}}
    schema = {"$defs": {"t": tree}, "type": "object", "properties": {"tree": {"$ref": "#/$defs/t"}}}
    router = SchemaRouter()
    router.register(ToolSpec(name="trees", endpoints=[endpoint_with(schema)]))
    good = PlanRequest(query="band gap", arguments={"tree": {"children": [{"children": []}]}})
    bad = PlanRequest(query="band gap", arguments={"tree": {"children": [{"children": 3}]}})
    assert router.plan(good).primary is not None
    assert "3 is not of type 'array'" in router.plan(bad).explain()


def test_a_remote_reference_is_refused_without_being_fetched(monkeypatch: pytest.MonkeyPatch) -> None:
    fetched: list[object] = []
    monkeypatch.setattr(urllib.request, "urlopen", lambda *a, **kw: fetched.append(a))
    schema = {"type": "object", "properties": {"formula": {"$ref": "http://schemas.test/formula.json"}}}
    with pytest.raises(ValidationError, match="must be self-contained"):
        endpoint_with(schema)
    assert fetched == []


def test_a_schema_nested_too_deeply_is_a_validation_error_not_a_recursion_error() -> None:
    with pytest.raises(ValidationError, match="nested deeper than"):
        endpoint_with(nested(100))


def test_a_schema_holding_a_value_that_is_not_json_is_a_validation_error() -> None:
    with pytest.raises(ValidationError, match="set is not JSON data"):
        endpoint_with({"type": "string", "enum": [{"Si", "Ge"}]})


@pytest.mark.parametrize(
    "build",
    [
        lambda: EndpointSpec(name="search", cost_units=math.inf),
        lambda: RetryPolicy(backoff_seconds=math.inf),
        lambda: CooldownPolicy(base_seconds=1, max_seconds=math.inf),
        lambda: endpoint_with({"type": "number", "maximum": math.nan}),
    ],
    ids=["cost_units", "backoff", "cooldown_max", "schema_nan"],
)
def test_contracts_refuse_numbers_that_are_not_finite(build: Any) -> None:
    with pytest.raises(ValidationError):
        build()


@pytest.mark.parametrize(
    "second", [("gap",), ("gap", "value")], ids=["same_result_path", "nested_result_path"]
)
def test_fields_written_at_the_same_place_of_a_result_are_refused(second: tuple[str, ...]) -> None:
    fields = [FieldSpec(name="band_gap", result_path=["gap"]), FieldSpec(name="gap2", result_path=second)]
    with pytest.raises(ValidationError, match=r"'band_gap' and 'gap2' .* would both be written"):
        EndpointSpec(name="search", fields=fields)


def test_binding_an_invoker_that_cannot_take_a_call_is_refused() -> None:
    router = SchemaRouter()
    router.register(mp_api())

    async def no_call() -> Any:
        return RECORDS["mp_api"]

    with pytest.raises(RegistrationError, match="an invoker takes one ToolCall"):
        router.bind("mp_api", no_call)  # type: ignore[arg-type]
    assert router.binding_state("mp_api") == "unbound"


def test_a_registration_refused_for_its_invoker_leaves_the_registry_unchanged() -> None:
    router = SchemaRouter()
    old = mp_api()
    router.register(old, FakeInvoker("mp_api"))
    with pytest.raises(RegistrationError):
        router.register(mp_api(cost_units=2.0), invoker="not callable")  # type: ignore[arg-type]
    assert router.tools["mp_api"] is old
    assert router.binding_state("mp_api") == "ready"


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("url", "seconds", "problem"),
    [(5, 10.0, "URL as a string"), ("http://api.test/openapi.json", math.inf, "timeout_seconds")],
    ids=["url_not_text", "endless_timeout"],
)
async def test_add_url_refuses_arguments_it_cannot_use_before_any_request(
    url: Any, seconds: float, problem: str
) -> None:
    sent: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(404)

    router = SchemaRouter(http_client=httpx.AsyncClient(transport=httpx.MockTransport(handler)))
    with pytest.raises(RegistrationError, match=problem):
        await router.add_url(url, kind="openapi", name="mp_api", timeout_seconds=seconds)
    assert sent == []
    assert router.tools == {}
