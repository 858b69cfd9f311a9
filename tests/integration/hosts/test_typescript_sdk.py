"""The TypeScript MCP SDK's own client (``@modelcontextprotocol/sdk`` from npm, run by node)
against the router's MCP server over stdio and streamable HTTP. The SDK validates every
``tools/call`` result against the tool's output schema, so an answer that broke it would be an
error here. One node process per transport makes the calls of ``tests/support/hosts.py``."""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

import pytest

from tests.support.environments import environment_or_skip, node_script
from tests.support.hosts import SCENARIOS, stdio_command, structured

pytestmark = [pytest.mark.integration, pytest.mark.timeout(600)]  # the first test may build the environment


@pytest.fixture(scope="module", params=["stdio", "http"])
def session(request: pytest.FixtureRequest) -> dict[str, Any]:
    """What the SDK client saw over one transport: server info, tools, one result per scenario."""
    script = environment_or_skip(lambda: node_script("sdk_client.mjs"), "the TypeScript MCP SDK")
    node = shutil.which("node")
    assert node is not None
    if request.param == "stdio":
        target = json.dumps(stdio_command())
    else:
        target = request.getfixturevalue("http_server").url
    done = subprocess.run(
        [node, str(script), request.param, target, json.dumps(SCENARIOS)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=script.parent,
    )
    assert done.returncode == 0, done.stderr
    out: dict[str, Any] = json.loads(done.stdout)
    out["results"] = dict(zip(["answered", "fallback", "all_down", "bad"], out.pop("calls"), strict=True))
    return out


def test_the_sdk_lists_one_tool_with_input_and_output_schemas(session: dict[str, Any]) -> None:
    (tool,) = session["tools"]
    assert tool["name"] == "materials"
    assert {"query", "formula", "limit"} <= set(tool["inputSchema"]["properties"])
    assert tool["outputSchema"]["type"] == "object"
    assert session["server"]["name"] == "schemarouter"
    assert "tools" in session["capabilities"]


def test_the_sdk_calls_the_tool_and_its_answer_passes_the_output_schema(session: dict[str, Any]) -> None:
    call = session["results"]["answered"]
    assert call["ok"], call
    assert call["result"].get("isError") is not True
    assert structured(call["result"])["answered_by"] == "mp_api.search"
    assert structured(call["result"])["records"] == [{"band_gap": 0.61}]


def test_the_sdk_sees_the_fallback_that_answered(session: dict[str, Any]) -> None:
    call = session["results"]["fallback"]
    assert call["ok"], call
    content = structured(call["result"])
    assert content["answered_by"] == "mp_optimade.search"
    assert [(f["from"], f["to"]) for f in content["fallbacks"]] == [("mp_api.search", "mp_optimade.search")]


def test_the_sdk_gets_an_error_result_when_every_route_is_down(session: dict[str, Any]) -> None:
    call = session["results"]["all_down"]
    assert call["ok"], call  # a tool error the model can read, not a protocol error
    assert call["result"]["isError"] is True
    assert "unavailable" in call["result"]["content"][0]["text"]


def test_the_sdk_gets_an_error_result_naming_a_bad_argument(session: dict[str, Any]) -> None:
    call = session["results"]["bad"]
    assert call["ok"], call
    assert call["result"]["isError"] is True
    assert "limit" in call["result"]["content"][0]["text"]
