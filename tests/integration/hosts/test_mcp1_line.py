"""The mcp 1.x line: the router's MCP server runs under mcp 1.x (``FastMCP``) and an mcp 1.x
``ClientSession`` talks to it over stdio and streamable HTTP (``tests/hosts/mcp1_client.py``);
a router under mcp 1.x adds MCP servers as routes (``tests/hosts/mcp1_routes.py``). All of it
runs in the mcp 1.x venv (``.cache/mcp1-venv``, :data:`tests.support.environments.MCP1`); the
2.x line is what the rest of the suite runs."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.environments import ROOT, environment_or_skip, mcp1_python
from tests.support.hosts import ALL_DOWN, ANSWERED, BAD_ARGUMENTS, FALLBACK, HttpServer, stdio_command

pytestmark = [pytest.mark.integration, pytest.mark.timeout(600)]  # the first test may build the venv

CLIENT = ROOT / "tests" / "hosts" / "mcp1_client.py"
CALLS = [ANSWERED, FALLBACK, ALL_DOWN, BAD_ARGUMENTS]


@pytest.fixture(scope="module")
def python() -> Path:
    return environment_or_skip(mcp1_python, "the mcp 1.x environment")


def run_client(python: Path, transport: str, target: str) -> dict[str, Any]:
    done = subprocess.run(
        [str(python), str(CLIENT), transport, target, json.dumps(CALLS)],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    out: dict[str, Any] = json.loads(done.stdout)
    return out


@pytest.fixture(scope="module")
def http_session(python: Path) -> Iterator[dict[str, Any]]:
    server = HttpServer(python=str(python))
    try:
        yield run_client(python, "http", server.url)
    finally:
        server.stop()


@pytest.fixture(scope="module")
def stdio_session(python: Path) -> dict[str, Any]:
    return run_client(python, "stdio", json.dumps(stdio_command(python=str(python))))


@pytest.fixture(params=["stdio", "http"])
def session(request: pytest.FixtureRequest) -> dict[str, Any]:
    out: dict[str, Any] = request.getfixturevalue(f"{request.param}_session")
    return out


def test_both_ends_run_the_mcp_1_line(session: dict[str, Any]) -> None:
    assert session["sdk"].startswith("1.")
    assert session["server"]["name"] == "schemarouter"


def test_the_client_lists_the_read_only_tool_with_its_schemas(session: dict[str, Any]) -> None:
    [tool] = session["tools"]
    assert tool["name"] == "materials"
    assert {"query", "formula", "limit", "fields"} <= set(tool["inputSchema"]["properties"])
    assert "records" in tool["outputSchema"]["properties"]
    assert tool["annotations"]["readOnlyHint"] is True


def test_a_call_answers_structured_records(session: dict[str, Any]) -> None:
    answered = session["calls"][0]
    assert answered["isError"] is False
    assert answered["structuredContent"]["answered_by"] == "mp_api.search"
    assert answered["structuredContent"]["records"] == [{"band_gap": 0.61}]


def test_a_call_shows_the_fallback_taken(session: dict[str, Any]) -> None:
    content = session["calls"][1]["structuredContent"]
    assert content["answered_by"] == "mp_optimade.search"
    assert content["fallbacks"][0]["from"] == "mp_api.search"


def test_every_route_down_is_an_error_result_marked_unavailable(session: dict[str, Any]) -> None:
    down = session["calls"][2]
    assert down["isError"] is True
    assert "unavailable" in down["content"][0]["text"]
    assert down["_meta"]["schemarouter/error"]["unavailable"] is True


def test_bad_arguments_are_an_error_result_the_model_can_read(session: dict[str, Any]) -> None:
    bad = session["calls"][3]
    assert bad["isError"] is True
    assert "limit" in bad["content"][0]["text"]


def test_the_router_events_reach_the_client_as_log_messages(session: dict[str, Any]) -> None:
    kinds = [log["data"]["type"] for log in session["logs"] if log.get("logger") == "schemarouter"]
    assert "tool.fallback" in kinds


def test_an_undeclared_capability_is_method_not_found(session: dict[str, Any]) -> None:
    assert "prompts" not in session["capabilities"]
    assert session["prompts_error"] == -32601


def test_an_unknown_tool_is_an_error_result_on_the_1_line(session: dict[str, Any]) -> None:
    # mcp 1.x turns every exception of a tool call into an isError result (2.x: JSON-RPC -32602)
    assert session["unknown_tool"]["isError"] is True
    assert "no_such_tool" in session["unknown_tool"]["content"][0]["text"]


ROUTES = ROOT / "tests" / "hosts" / "mcp1_routes.py"


def run_routes(python: Path, transport: str, target: str) -> dict[str, Any]:
    done = subprocess.run(
        [str(python), str(ROUTES), transport, target],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out: dict[str, Any] = json.loads(done.stdout)
    return out


@pytest.fixture(scope="module")
def routes_over_stdio(python: Path) -> dict[str, Any]:
    return run_routes(python, "stdio", json.dumps(stdio_command(python=str(python))))


@pytest.fixture(scope="module")
def routes_over_http(python: Path) -> Iterator[dict[str, Any]]:
    server = HttpServer(python=str(python))
    try:
        yield run_routes(python, "http", server.url)
    finally:
        server.stop()


@pytest.fixture(params=["stdio", "http"])
def routed(request: pytest.FixtureRequest) -> dict[str, Any]:
    out: dict[str, Any] = request.getfixturevalue(f"routes_over_{request.param}")
    return out


def test_a_router_under_mcp_1_routes_through_another_routers_server(routed: dict[str, Any]) -> None:
    assert routed["endpoints"] == ["materials"]
    assert routed["answered_by"] == "inner.materials"
    assert routed["records"] == [{"band_gap": 0.61, "formula": "Si"}]
    assert routed["provenance"]["chain"] == ["inner.materials", "mp_api.search"]


def test_the_inner_routers_all_down_answer_is_unavailable_under_mcp_1(routed: dict[str, Any]) -> None:
    assert routed["failure"] == "AllRoutesUnavailableError"


def test_the_ping_probe_reaches_the_server_under_mcp_1(routed: dict[str, Any]) -> None:
    assert routed["ping"] is True


def test_an_in_process_fastmcp_server_is_a_route_under_mcp_1(python: Path) -> None:
    routed = run_routes(python, "inprocess", "-")
    assert routed["endpoints"] == ["search"] and routed["answered_by"] == "inner.search"
    # as on mcp 2.x: the output schema FastMCP writes for a dict names no records array
    assert routed["records"] == [{"records": [{"formula": "Si", "band_gap": 0.61}]}]
    assert routed["failure"] == "NonRetryableInvocationError"  # an isError result
    assert routed["ping"] is True
