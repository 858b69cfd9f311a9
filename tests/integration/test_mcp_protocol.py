"""The router's MCP server by the protocol: only declared capabilities are served (others are
method-not-found), prompt failures are valid JSON-RPC errors, and router events reach the
client as log messages without any deprecation warning from the package."""

from __future__ import annotations

import sys
import warnings
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND, PromptReference

from schemarouter_integrations.mcp import RouterMCPServer, router_mcp_server
from tests.integration.test_mcp_server import SCRIPT, SI
from tests.servers.uvicorn_thread import UvicornThread
from tests.support.seed import seed_router

pytestmark = [pytest.mark.anyio, pytest.mark.integration]

Connect = Callable[[RouterMCPServer], Any]


@asynccontextmanager
async def in_process(server: RouterMCPServer) -> AsyncIterator[Client]:
    async with Client(server) as client:
        yield client


@asynccontextmanager
async def over_http(server: RouterMCPServer) -> AsyncIterator[Client]:
    thread = UvicornThread(server.streamable_http_app()).start()
    try:
        async with Client(thread.url + "/mcp") as client:
            yield client
    finally:
        thread.stop()


@pytest.fixture(params=[in_process, over_http], ids=["in-process", "http"])
def connect(request: pytest.FixtureRequest) -> Connect:
    return request.param  # type: ignore[no-any-return]


def router_server() -> RouterMCPServer:
    router, _ = seed_router()
    return router_mcp_server(router)


async def code_of(call: Any) -> int:
    with pytest.raises(MCPError) as raised:
        await call
    return raised.value.code


async def test_methods_of_capabilities_the_server_does_not_declare_are_method_not_found(
    connect: Connect,
) -> None:
    async with connect(router_server()) as client:
        declared = client.server_capabilities
        assert declared.tools is not None
        assert (declared.prompts, declared.resources, declared.completions) == (None, None, None)
        calls: dict[str, Callable[[], Any]] = {
            "prompts/list": client.list_prompts,
            "prompts/get": lambda: client.get_prompt("anything"),
            "resources/list": client.list_resources,
            "resources/templates/list": client.list_resource_templates,
            "resources/read": lambda: client.read_resource("file:///anything"),
            "completion/complete": lambda: client.complete(
                PromptReference(name="anything"), {"name": "x", "value": ""}
            ),
        }
        codes = {method: await code_of(call()) for method, call in calls.items()}
    assert codes == dict.fromkeys(calls, METHOD_NOT_FOUND)


async def test_prompts_the_application_adds_are_served_and_their_failures_are_json_rpc_errors(
    connect: Connect,
) -> None:
    server = router_server()

    @server.prompt()
    def ask(material: str) -> str:
        """Ask for a material's band gap."""
        if material == "boom":
            raise RuntimeError("no such material")
        return f"What is the band gap of {material}?"

    async with connect(server) as client:
        assert client.server_capabilities.prompts is not None
        assert [prompt.name for prompt in (await client.list_prompts()).prompts] == ["ask"]
        got = await client.get_prompt("ask", {"material": "Si"})
        assert "band gap of Si" in str(got.messages[0].content)

        assert await code_of(client.get_prompt("nope")) == INVALID_PARAMS
        assert await code_of(client.get_prompt("ask")) == INVALID_PARAMS  # material missing
        assert await code_of(client.get_prompt("ask", {"material": "boom"})) == INTERNAL_ERROR
        assert await code_of(client.list_resources()) == METHOD_NOT_FOUND  # still none of those


async def test_router_events_reach_the_client_as_log_messages_without_deprecation_warnings() -> None:
    logs: list[Any] = []

    async def on_log(params: Any) -> None:
        logs.append(params)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        async with Client(router_server(), logging_callback=on_log, log_level="info") as client:
            result = await client.call_tool("data_lookup", SI)
    assert not result.is_error
    assert [log.data["type"] for log in logs][-1] == "run.end"
    assert {log.logger for log in logs} == {"schemarouter"}
    ours = [w for w in caught if "schemarouter_integrations" in w.filename or "deprecated" in str(w.message)]
    assert ours == []


async def test_over_stdio_with_warnings_as_errors_the_server_starts_answers_and_logs() -> None:
    logs: list[Any] = []

    async def on_log(params: Any) -> None:
        logs.append(params)

    command = StdioServerParameters(
        command=sys.executable, args=["-W", "error", SCRIPT, "--down", "mp_api", "--scope", "same_provider"]
    )
    async with Client(command, logging_callback=on_log, log_level="info") as client:
        result = await client.call_tool("data_lookup", SI)
    assert not result.is_error and result.structured_content is not None
    assert result.structured_content["route"] == ["mp_api.search", "mp_optimade.search"]
    assert "tool.fallback" in [log.data["type"] for log in logs]
