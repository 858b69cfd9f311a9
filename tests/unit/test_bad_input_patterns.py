"""Regular expressions from contracts run in linear time: a hostile ``pattern`` plus a long
model argument cannot stall validation, and patterns that need backtracking are refused."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from schemarouter_integrations import EndpointSpec, PlanRequest, SchemaRouter, ToolSpec
from schemarouter_integrations._contracts import patterns

pytestmark = pytest.mark.anyio

CATASTROPHIC = "^(a+)+$"
"""Exponential in a backtracking engine: 'a' * 64 + '!' would take ~2**64 steps in ``re``."""


def tool_with(pattern: str) -> ToolSpec:
    schema = {"type": "object", "properties": {"code": {"type": "string", "pattern": pattern}}}
    return ToolSpec(
        name="codes",
        provider="acme",
        endpoints=[EndpointSpec(name="lookup", read_only=True, input_schema=schema)],
    )


async def answer(call: Any) -> dict[str, Any]:
    return {"code": call.arguments["code"]}


@pytest.mark.timeout(30)  # a backtracking engine would hang here, not fail
async def test_a_catastrophic_pattern_refuses_a_long_argument_at_once() -> None:
    router = SchemaRouter()
    router.register(tool_with(CATASTROPHIC), answer)

    plan = router.plan(PlanRequest(query="code", arguments={"code": "a" * 64 + "!"}, fields=[]))

    assert plan.primary is None
    assert "does not match" in plan.rejected[0].reason


@pytest.mark.timeout(30)
async def test_a_catastrophic_pattern_still_accepts_a_matching_argument() -> None:
    router = SchemaRouter()
    router.register(tool_with(CATASTROPHIC), answer)

    result = await router.invoke(PlanRequest(query="code", arguments={"code": "a" * 64}, fields=[]))

    assert result.records == [{"code": "a" * 64}]


def test_a_pattern_is_searched_not_anchored_as_json_schema_says() -> None:
    assert patterns.search("b+", "abba") and not patterns.search("^b", "abba")


@pytest.mark.parametrize("pattern", [r"(a)\1", r"(?=a)a", r"(?<!x)y"])
def test_a_pattern_that_needs_backtracking_is_refused_with_the_reason(pattern: str) -> None:
    with pytest.raises(ValidationError, match="backtracking engine"):
        tool_with(pattern)


def test_a_pattern_property_that_needs_backtracking_is_refused() -> None:
    schema = {"type": "object", "patternProperties": {r"(x)\1": {"type": "string"}}}
    with pytest.raises(ValidationError, match="patternProperties"):
        EndpointSpec(name="lookup", input_schema=schema)


def test_an_invalid_pattern_is_refused() -> None:
    with pytest.raises(ValidationError, match=r"not a valid (regular expression|JSON Schema)"):
        tool_with("([a-z")


def test_without_re2_a_pattern_that_could_backtrack_is_refused_naming_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(patterns, "_re2", None)
    monkeypatch.setattr(patterns, "_MATCHERS", patterns.BoundedCache(16))

    assert "re2 extra" in (patterns.pattern_problem(CATASTROPHIC) or "")
    assert patterns.pattern_problem(r"^[A-Z]{2}\d{4}$") is None
    assert patterns.search(r"^[A-Z]{2}\d{4}$", "AB1234")


def test_patterns_are_reported_where_they_sit_in_the_schema() -> None:
    schema = {
        "properties": {"a": {"pattern": "x"}, "pattern": {"type": "string"}},
        "patternProperties": {"^k": {}},
    }
    assert sorted(patterns.patterns_in(schema)) == [
        ("/patternProperties", "^k"),
        ("/properties/a/pattern", "x"),
    ]


async def test_a_remote_document_pattern_that_needs_backtracking_is_left_to_the_server() -> None:
    import httpx

    from schemarouter_integrations.adapters._url import build_url_route

    parameter = {"name": "code", "in": "query", "schema": {"type": "string", "pattern": r"^(?!x)\w+$"}}
    responses = {
        "200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}}
    }
    document = {
        "openapi": "3.0.3",
        "info": {"title": "codes", "version": "1"},
        "paths": {
            "/codes": {"get": {"operationId": "codes", "parameters": [parameter], "responses": responses}}
        },
    }

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=document)

    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as client:
        spec, _ = await build_url_route(
            "http://api.test/openapi.json", kind="openapi", name="codes", client=client
        )
    assert "pattern" not in spec.endpoints[0].input_schema["properties"]["code"]
