"""The MCP Inspector's CLI mode (``@modelcontextprotocol/inspector --cli``, npm 0.21.2; it
declares node >= 22.7.5 but its CLI runs on node 20) against the router's MCP server over stdio
and streamable HTTP: ``tools/list`` and ``tools/call`` of each scenario."""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

import pytest

from tests.support.environments import environment_or_skip, node_modules
from tests.support.hosts import ALL_DOWN, ANSWERED, BAD_ARGUMENTS, FALLBACK, HttpServer, stdio_command

pytestmark = [pytest.mark.integration, pytest.mark.timeout(600)]  # the first test may build the environment


def inspector(transport: str, server: HttpServer | None, *method: str) -> dict[str, Any]:
    """Run the Inspector CLI once and return the JSON it printed."""
    modules = environment_or_skip(node_modules, "the MCP Inspector")
    node = shutil.which("node")
    assert node is not None
    cli = modules / "node_modules" / "@modelcontextprotocol" / "inspector" / "cli" / "build" / "cli.js"
    if transport == "stdio":
        target = ["--cli", *stdio_command()]
    else:
        assert server is not None
        target = ["--cli", server.url, "--transport", "http"]
    done = subprocess.run(
        [node, str(cli), *target, *method], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr or done.stdout
    out: dict[str, Any] = json.loads(done.stdout)
    return out


def call(arguments: dict[str, Any]) -> list[str]:
    options = ["--method", "tools/call", "--tool-name", "materials"]
    for name, value in arguments.items():
        options += ["--tool-arg", f"{name}={value}"]
    return options


@pytest.fixture(params=["stdio", "http"])
def transport(request: pytest.FixtureRequest) -> tuple[str, HttpServer | None]:
    server = request.getfixturevalue("http_server") if request.param == "http" else None
    return request.param, server


def test_the_inspector_lists_the_tool(transport: tuple[str, HttpServer | None]) -> None:
    (tool,) = inspector(*transport, "--method", "tools/list")["tools"]
    assert tool["name"] == "materials"
    assert "formula" in tool["inputSchema"]["properties"] and "outputSchema" in tool


def test_the_inspector_calls_the_tool(transport: tuple[str, HttpServer | None]) -> None:
    result = inspector(*transport, *call(ANSWERED))
    assert result.get("isError") is not True
    assert result["structuredContent"]["answered_by"] == "mp_api.search"


def test_the_inspector_sees_the_fallback(transport: tuple[str, HttpServer | None]) -> None:
    result = inspector(*transport, *call(FALLBACK))
    assert result["structuredContent"]["answered_by"] == "mp_optimade.search"
    assert result["structuredContent"]["fallbacks"][0]["from"] == "mp_api.search"


def test_the_inspector_sees_an_error_result_when_every_route_is_down(
    transport: tuple[str, HttpServer | None],
) -> None:
    result = inspector(*transport, *call(ALL_DOWN))
    assert result["isError"] is True and "unavailable" in result["content"][0]["text"]


def test_the_inspector_sees_an_error_result_naming_a_bad_argument(
    transport: tuple[str, HttpServer | None],
) -> None:
    result = inspector(*transport, *call(BAD_ARGUMENTS))
    assert result["isError"] is True and "limit" in result["content"][0]["text"]
