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
