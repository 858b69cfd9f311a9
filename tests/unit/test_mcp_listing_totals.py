"""The router's MCP tool says how much of a listing it answered: ``structuredContent`` carries
``total`` (the source's count) and ``truncated``, so an MCP client, or another router calling
this one, knows it holds the first records only."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import EndpointSpec, FieldSpec, PlanRequest, SchemaRouter, ToolSpec
from schemarouter_integrations.mcp import router_mcp_server

pytestmark = pytest.mark.anyio


def listing_router(count: int, *, total: int | None) -> SchemaRouter:
    """One listing of *count* materials; the source reports *total* matches when it is given."""
    rows = [{"material_id": f"mp-{i}", "band_gap": i / 10} for i in range(count)]
    endpoint = EndpointSpec(
        name="search",
        read_only=True,
        input_schema={"type": "object", "properties": {}},
        fields=[FieldSpec(name="material_id", identity=True), FieldSpec(name="band_gap")],
        records_path=["data"],
    )
    router = SchemaRouter()
    router.register(ToolSpec(name="mp", provider="mp", endpoints=[endpoint]))

    async def answer(call: object) -> Any:
        return {"data": rows} if total is None else {"meta": {"total_doc": total}, "data": rows}

    router.bind("mp", answer)
    return router


async def test_the_structured_content_carries_the_sources_total_and_truncation() -> None:
    from mcp import Client

    server = router_mcp_server(listing_router(3, total=1432), tool_name="materials")
    async with Client(server) as client:
        result = await client.call_tool("materials", {"query": "band gap"})
    assert result.structured_content is not None
    assert result.structured_content["total"] == 1432
    assert result.structured_content["truncated"] is True
    assert len(result.structured_content["records"]) == 3


async def test_a_whole_listing_says_it_is_not_truncated() -> None:
    from mcp import Client

    server = router_mcp_server(listing_router(3, total=None), tool_name="materials")
    async with Client(server) as client:
        result = await client.call_tool("materials", {"query": "band gap"})
    assert result.structured_content is not None
    assert result.structured_content["total"] is None
    assert result.structured_content["truncated"] is False


async def test_a_router_calling_this_one_over_mcp_reads_the_total_and_truncation() -> None:
    inner = router_mcp_server(listing_router(3, total=1432), tool_name="materials")
    async with SchemaRouter() as outer:
        await outer.add_mcp(inner, name="lab", provider="lab", read_only=True, tools=["materials"])
        result = await outer.invoke(PlanRequest(query="band gap"))
    assert result.records and result.total == 1432 and result.truncated is True


async def test_a_router_calling_this_one_reads_a_cut_answer_without_a_count_as_truncated() -> None:
    inner = router_mcp_server(listing_router(250, total=None), tool_name="materials")
    async with SchemaRouter() as outer:
        await outer.add_mcp(inner, name="lab", provider="lab", read_only=True, tools=["materials"])
        result = await outer.invoke(PlanRequest(query="band gap"))
    assert len(result.records) == 200 and result.total is None and result.truncated is True


async def test_a_gathering_mcp_tool_says_when_a_source_was_cut() -> None:
    from mcp import Client

    server = router_mcp_server(listing_router(3, total=1432), tool_name="materials", mode="gather")
    async with Client(server) as client:
        result = await client.call_tool("materials", {"query": "band gap"})
    assert result.structured_content is not None
    assert result.structured_content["truncated"] is True
