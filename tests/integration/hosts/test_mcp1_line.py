"""The mcp 1.x line: the router's MCP server runs under mcp 1.x (``FastMCP``) and an mcp 1.x
``ClientSession`` talks to it over stdio and streamable HTTP. Both run in the mcp 1.x venv
(``.cache/mcp1-venv``, :data:`tests.support.environments.MCP1`), driven by
``tests/hosts/mcp1_client.py``; the 2.x line is what the rest of the suite runs."""

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


def test_adding_an_mcp_route_under_mcp_1_says_it_needs_mcp_2(python: Path) -> None:
    script = (
        "import anyio\n"
        "from schemarouter_integrations import SchemaRouter\n"
        "async def main():\n"
        "    try:\n"
        "        await SchemaRouter().add_mcp(['true'], name='other', read_only=True)\n"
        "    except ImportError as exc:\n"
        "        print(exc)\n"
        "anyio.run(main)\n"
    )
    done = subprocess.run(
        [str(python), "-c", script], capture_output=True, text=True, timeout=120, check=False, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    assert "need mcp 2.x" in done.stdout
