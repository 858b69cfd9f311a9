"""``llama-index-tools-mcp`` (``McpToolSpec`` over ``BasicMCPClient``) against the router's MCP
server over streamable HTTP, on an MP-like landscape whose parameters start with ``_``
(``_limit``, ``_skip``): LlamaIndex builds a pydantic model of the tool's arguments, which refuses
field names with a leading underscore, so the router must show them as ``limit`` and ``skip``."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.hosts import ALL_DOWN, ANSWERED, BAD_ARGUMENTS, FALLBACK, HttpServer

pytestmark = [pytest.mark.integration, pytest.mark.anyio, pytest.mark.timeout(600)]  # builds/starts once


async def load(server: HttpServer) -> Any:
    from llama_index.tools.mcp import BasicMCPClient, McpToolSpec

    (tool,) = await McpToolSpec(client=BasicMCPClient(server.url)).to_tool_list_async()
    return tool


async def call(server: HttpServer, arguments: dict[str, Any]) -> Any:
    """The ``CallToolResult`` of one call (LlamaIndex keeps it as the output's ``raw_output``)."""
    tool = await load(server)
    return (await tool.acall(**arguments)).raw_output


async def test_llama_index_loads_the_tool_with_underscore_parameters_shown_without_it(
    underscore_server: HttpServer,
) -> None:
    tool = await load(underscore_server)
    assert tool.metadata.name == "materials"
    fields = set(tool.metadata.fn_schema.model_fields)
    assert {"query", "formula", "limit", "skip"} <= fields
    assert not [name for name in fields if name.startswith("_")]


async def test_llama_index_calls_the_tool_with_a_shown_name(underscore_server: HttpServer) -> None:
    result = await call(underscore_server, {**ANSWERED, "limit": 2})
    assert not result.is_error
    assert result.structured_content["answered_by"] == "mp_api.search"


async def test_llama_index_sees_the_fallback(underscore_server: HttpServer) -> None:
    result = await call(underscore_server, FALLBACK)
    assert result.structured_content["answered_by"] == "mp_optimade.search"
    assert result.structured_content["fallbacks"][0]["from"] == "mp_api.search"


async def test_llama_index_gets_an_error_result_when_every_route_is_down(
    underscore_server: HttpServer,
) -> None:
    result = await call(underscore_server, ALL_DOWN)
    assert result.is_error and "unavailable" in result.content[0].text


async def test_llama_index_gets_an_error_result_naming_a_bad_argument(underscore_server: HttpServer) -> None:
    result = await call(underscore_server, BAD_ARGUMENTS)
    assert result.is_error and "limit" in result.content[0].text
