"""A response the executor cannot validate ends the run as a SchemaValidationError, never as a
crash: no retry, no fallback, no cooldown, a ``run.error`` event and no result."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import EndpointSpec, PlanRequest, SchemaRouter, SchemaValidationError, ToolSpec
from tests.support.execution import CHAIN, collect, fake_router, rebuilt, types

CHAINS = {
    "$defs": {"chain": {"type": "array", "items": {"$ref": "#/$defs/chain"}}},
    "type": "object",
    "properties": {"data": {"$ref": "#/$defs/chain"}},
}


@pytest.mark.anyio
async def test_a_response_too_deep_for_its_recursive_output_schema_is_a_schema_validation_error() -> None:
    router, invokers, _ = fake_router()
    spec: ToolSpec = rebuilt(router.tools["mp_api"], output_schema=CHAINS)
    deep: list[Any] = []
    inner = deep
    for _ in range(5000):
        inner.append([])
        inner = inner[0]

    async def deep_answer(call: Any) -> Any:
        return {"data": deep}

    router.register(spec, deep_answer)
    events = await collect(router, CHAIN)
    assert types(events)[-2:] == ["tool.error", "run.error"]
    assert isinstance(events[-1].exception, SchemaValidationError)  # type: ignore[attr-defined]
    assert router.inspect().execution.unavailable_access_paths == []
    assert all(not inv.calls for name, inv in invokers.items() if name != "mp_api")


@pytest.mark.anyio
@pytest.mark.parametrize(
    "record",
    [{"band_gap": object()}, {"band_gap": b"\xff"}, {7: "Si"}],
    ids=["object", "undecodable_bytes", "int_key"],
)
async def test_records_that_cannot_become_json_end_the_run_as_a_schema_validation_error(record: Any) -> None:
    router = SchemaRouter()
    passing = EndpointSpec(name="search", read_only=True, records_path=["data"])  # no fields: records pass

    async def odd_answer(call: Any) -> Any:
        return {"data": [record]}

    router.register(ToolSpec(name="odd", provider="p", endpoints=[passing]), odd_answer)
    events = await collect(router, PlanRequest(query="anything"))
    assert types(events)[-2:] == ["tool.error", "run.error"]
    assert isinstance(events[-1].exception, SchemaValidationError)  # type: ignore[attr-defined]
    assert router.inspect().execution.unavailable_access_paths == []


@pytest.mark.anyio
@pytest.mark.parametrize(
    "record",
    [
        {"band_gap": float("nan")},
        {"band_gap": float("inf")},
        {"elements": {"Si"}},
        {"elements": ("Si",)},
        {"formula": b"Si"},
        {"nested": [{"band_gap": -float("inf")}]},
    ],
    ids=["nan", "infinity", "set", "tuple", "bytes", "nested_infinity"],
)
async def test_records_that_json_would_only_approximate_end_the_run_as_a_schema_validation_error(
    record: Any,
) -> None:
    router = SchemaRouter()
    passing = EndpointSpec(name="search", read_only=True, records_path=["data"])

    async def odd_answer(call: Any) -> Any:
        return {"data": [record]}

    router.register(ToolSpec(name="odd", provider="p", endpoints=[passing]), odd_answer)
    events = await collect(router, PlanRequest(query="anything"))
    assert types(events)[-2:] == ["tool.error", "run.error"]
    error = events[-1].exception  # type: ignore[attr-defined]
    assert isinstance(error, SchemaValidationError) and error.subject == "response"
    assert "cannot be written as JSON" in str(error)


@pytest.mark.anyio
@pytest.mark.parametrize("value", [float("nan"), {"Si", "O"}, ("Si", "O")], ids=["nan", "set", "tuple"])
async def test_a_callable_returning_non_json_values_is_a_schema_validation_error(value: Any) -> None:
    router = SchemaRouter()

    def lookup(formula: str) -> dict[str, Any]:
        return {"formula": formula, "value": value}

    router.add_callable(lookup, name="local", provider="p", read_only=True, fields=["formula", "value"])
    with pytest.raises(SchemaValidationError, match="cannot be written as JSON"):
        await router.invoke(PlanRequest(query="value", arguments={"formula": "Si"}))


@pytest.mark.anyio
async def test_nan_literals_in_an_http_body_are_not_an_answer() -> None:
    import httpx

    from schemarouter_integrations.adapters._url import build_url_route

    document = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/gaps": {
                "get": {
                    "operationId": "gaps",
                    "responses": {
                        "200": {
                            "description": "ok",
                            "content": {
                                "application/json": {
                                    "schema": {
                                        "type": "object",
                                        "properties": {
                                            "data": {
                                                "type": "array",
                                                "items": {
                                                    "type": "object",
                                                    "properties": {"band_gap": {"type": "number"}},
                                                },
                                            }
                                        },
                                    }
                                }
                            },
                        }
                    },
                }
            }
        },
    }

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/openapi.json":
            return httpx.Response(200, json=document)
        return httpx.Response(
            200, content=b'{"data": [{"band_gap": NaN}]}', headers={"content-type": "application/json"}
        )

    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    spec, invoker = await build_url_route(
        "http://api.test/openapi.json", kind="openapi", name="gaps_api", client=client, provider="p"
    )
    router = SchemaRouter()
    router.register(spec, invoker)
    with pytest.raises(SchemaValidationError, match="cannot be written as JSON"):
        await router.invoke(PlanRequest(query="band gap"))
    await client.aclose()
