"""``langchain-mcp-adapters`` (``MultiServerMCPClient`` over streamable HTTP) against the router's
MCP server. It needs mcp 1.x (0.3.2 declares ``mcp>=1.24,<2``) and the project's venv has mcp 2,
so it runs in its own venv (``.cache/langchain-mcp-venv``,
:data:`tests.support.environments.LANGCHAIN_MCP`), driven by ``tests/hosts/langchain_mcp_client.py``."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest

from tests.support.environments import ROOT, environment_or_skip, langchain_mcp_python
from tests.support.hosts import SCENARIOS, HttpServer

pytestmark = [pytest.mark.integration, pytest.mark.timeout(600)]  # the first test may build the environment

CLIENT = ROOT / "tests" / "hosts" / "langchain_mcp_client.py"


@pytest.fixture(scope="module")
def session(http_server: HttpServer) -> dict[str, Any]:
    python = environment_or_skip(langchain_mcp_python, "the langchain-mcp-adapters environment")
    done = subprocess.run(
        [str(python), str(CLIENT), http_server.url, json.dumps(SCENARIOS)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out: dict[str, Any] = json.loads(done.stdout)
    out["results"] = dict(zip(["answered", "fallback", "all_down", "bad"], out.pop("calls"), strict=True))
    return out


def test_the_adapters_load_the_tool_with_its_arguments(session: dict[str, Any]) -> None:
    # `fields` is the router's own optional argument: canonical field names that define the need
    assert session["tools"] == [
        {"name": "materials", "arguments": ["fields", "filters", "formula", "limit", "query"]}
    ]


def test_the_adapters_call_the_tool_and_keep_the_structured_answer(session: dict[str, Any]) -> None:
    call = session["results"]["answered"]
    assert call["ok"] and call["status"] == "success", call
    assert "mp_api.search" in call["text"]
    assert call["artifact"]["structured_content"]["answered_by"] == "mp_api.search"


def test_the_adapters_see_the_fallback(session: dict[str, Any]) -> None:
    call = session["results"]["fallback"]
    assert call["status"] == "success"
    content = call["artifact"]["structured_content"]
    assert content["answered_by"] == "mp_optimade.search"
    assert content["fallbacks"][0]["from"] == "mp_api.search"


def test_the_adapters_turn_an_all_down_run_into_an_error_tool_message(session: dict[str, Any]) -> None:
    call = session["results"]["all_down"]
    assert call["ok"] and call["status"] == "error"
    assert "unavailable" in call["text"]


def test_the_adapters_turn_bad_arguments_into_an_error_tool_message(session: dict[str, Any]) -> None:
    call = session["results"]["bad"]
    assert call["ok"] and call["status"] == "error"
    assert "limit" in call["text"]
