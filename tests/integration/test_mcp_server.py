"""The router as an MCP server (``router_mcp_server``), driven by the ``mcp`` SDK client over
stdio and streamable HTTP, and by ``llama-index-tools-mcp``."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

from schemarouter_integrations import EndpointSpec, FieldSpec, ToolSpec
from schemarouter_integrations.mcp import OUTPUT_SCHEMA, router_mcp_server
from tests.servers.uvicorn_thread import UvicornThread
from tests.support.seed import FakeInvoker, seed_router, unavailable

pytestmark = [pytest.mark.anyio, pytest.mark.integration]

SCRIPT = str(Path(__file__).resolve().parents[1] / "servers" / "mcp_router_server.py")
SI = {"query": "band gap of Si", "formula": "Si"}


class Served:
    """A seed router served over streamable HTTP on loopback, with its invokers at hand."""

    def __init__(self) -> None:
        self.router, self.invokers = seed_router()
        app = router_mcp_server(self.router, fallback_scope="cross_provider").streamable_http_app()
        self.thread = UvicornThread(app).start()
        self.url = self.thread.url + "/mcp"

    def down(self, *tools: str) -> None:
        for name, invoker in self.invokers.items():
            invoker.fail_with = unavailable(f"{name} is down") if name in tools else None


@pytest.fixture
def served() -> Iterator[Served]:
    served = Served()
    try:
        yield served
    finally:
        served.thread.stop()


async def test_over_stdio_the_tool_lists_its_schema_and_an_outage_falls_back_with_log_notifications() -> None:
    logs: list[Any] = []
    steps: list[str | None] = []

    async def on_log(params: Any) -> None:
        logs.append(params)

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        steps.append(message)

    command = StdioServerParameters(
        command=sys.executable, args=[SCRIPT, "--down", "mp_api", "--scope", "same_provider"]
    )
    async with Client(command, logging_callback=on_log, log_level="info") as client:
        (tool,) = (await client.list_tools()).tools
        assert tool.name == "data_lookup"
        assert {"query", "fields", "formula", "limit"} <= set(tool.input_schema["properties"])
        assert "required" not in tool.input_schema  # query is optional: fields may define the need
        assert tool.output_schema is not None
        records = tool.output_schema["properties"]["records"]["items"]["properties"]
        assert {"band_gap", "bulk_modulus", "formula"} <= set(records)
        assert set(OUTPUT_SCHEMA["required"]) == set(tool.output_schema["required"])
        hints = tool.annotations
        assert hints is not None
        assert (hints.read_only_hint, hints.idempotent_hint, hints.open_world_hint) == (True, True, True)

        result = await client.call_tool("data_lookup", SI, progress_callback=on_progress)
    assert not result.is_error
    data = result.structured_content
    assert data is not None
    assert data["route"] == ["mp_api.search", "mp_optimade.search"]
    assert data["fallbacks"] == [
        {
            "from": "mp_api.search",
            "to": "mp_optimade.search",
            "reason": "unavailable",
            "scope": "same_provider",
        }
    ]
    assert data["records"] == [{"band_gap": 0.61}]
    fallback = [log for log in logs if log.data["type"] == "tool.fallback"]
    assert len(fallback) == 1 and fallback[0].level == "warning" and fallback[0].logger == "schemarouter"
    assert [log.data["type"] for log in logs][-1] == "run.end"
    assert "tool.fallback" in steps and steps[-1] == "run.end"


async def test_over_http_answers_with_the_route_and_failures_are_is_error_results(served: Served) -> None:
    async with Client(served.url) as client:
        answered = await client.call_tool("data_lookup", SI)
        assert not answered.is_error and answered.structured_content is not None
        assert answered.structured_content["route"] == ["mp_api.search"]
        assert answered.structured_content["answered_by"] == "mp_api.search"

        served.down("mp_api", "mp_optimade", "mp_python", "oqmd_api")
        every = await client.call_tool("data_lookup", SI)
        assert every.is_error
        assert every.content[0].text.startswith("Every data source that could answer was unavailable")  # type: ignore[union-attr]

        bad = await client.call_tool("data_lookup", {"query": "band gap", "limit": 0})
        assert bad.is_error and "Invalid tool arguments: limit" in bad.content[0].text  # type: ignore[union-attr]

        served.down()
        none = await client.call_tool("data_lookup", {"query": "superconducting critical temperature"})
        assert none.is_error and "No data source" in none.content[0].text  # type: ignore[union-attr]


async def test_the_tool_schema_follows_the_registry() -> None:
    router, _ = seed_router()
    server = router_mcp_server(router)
    async with Client(server) as client:
        (before,) = (await client.list_tools()).tools
        assert "elements" not in before.input_schema["properties"]
        spec = ToolSpec(
            name="elements_api",
            provider="elements",
            endpoints=[
                EndpointSpec(
                    name="search",
                    input_schema={"type": "object", "properties": {"elements": {"type": "string"}}},
                    fields=[FieldSpec(name="band_gap")],
                    read_only=True,
                )
            ],
        )
        router.register(spec, FakeInvoker("mp_api"))
        (after,) = (await client.list_tools(cache_mode="refresh")).tools
        assert "elements" in after.input_schema["properties"]


async def test_llama_index_tools_mcp_consumes_the_server(served: Served) -> None:
    from llama_index.tools.mcp import BasicMCPClient, McpToolSpec

    spec = McpToolSpec(client=BasicMCPClient(served.url))
    (tool,) = await spec.to_tool_list_async()
    assert tool.metadata.name == "data_lookup"
    output = await tool.acall(query="band gap of Si", formula="Si")
    assert not output.is_error
    assert "Answered by mp_api.search" in output.content


async def test_in_gather_mode_the_tool_answers_from_every_route_side_by_side() -> None:
    router, _ = seed_router()
    server = router_mcp_server(router, mode="gather")
    async with Client(server) as client:
        answer = await client.call_tool("data_lookup", SI)
    assert not answer.is_error
    assert answer.structured_content is not None
    providers = {record["provider"] for record in answer.structured_content["records"]}
    assert len(providers) >= 2
