"""The real ``langsmith`` client, posting to a loopback capture, records the route tree.

The primary route's server refuses connections; the fallback is a live MP-like API. The
LangSmith tool run must carry the router events (``tool.fallback`` among them), the route
in its metadata, and one child run per attempted route.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.tracers import LangChainTracer
from langsmith import Client, tracing_context

from tests.servers.langsmith_capture import LangSmithCapture
from tests.servers.materials_api import MaterialsApiServer
from tests.support.http import http_router
from tests.support.langchain import QUESTION, http_tool, make_agent

pytestmark = pytest.mark.integration

TOOL_CALL = {
    "type": "tool_call",
    "id": "c1",
    "name": "materials",
    "args": {"query": "band gap of Si", "formula": "Si"},
}


@pytest.fixture
def traced_tool_runs(
    langsmith_capture: LangSmithCapture,
    tracing_client: Client,
    materials_api: MaterialsApiServer,
    refused_url: str,
) -> dict[str, Any]:
    """One traced tool call with the primary refused: the tool run and its children, by name."""
    tool = http_tool(http_router(refused_url, materials_api.url))
    tracer = LangChainTracer(client=tracing_client, project_name="routes")
    tool.invoke(TOOL_CALL, config={"callbacks": [tracer]})
    tracing_client.flush()
    runs = langsmith_capture.wait_for_runs(3)
    (root,) = [r for r in runs if not r.get("parent_run_id")]
    return {"root": root, "children": langsmith_capture.children_of(root["id"])}


def event_names(run: dict[str, Any]) -> list[str]:
    return [e["name"] for e in run.get("events") or []]


def test_tool_run_carries_the_router_events_including_the_fallback(traced_tool_runs: dict[str, Any]) -> None:
    root = traced_tool_runs["root"]
    assert root["name"] == "materials"
    assert event_names(root) == [
        "start",
        "run.start",
        "plan.compiled",
        "tool.start",
        "tool.error",
        "route.unavailable",
        "tool.fallback",
        "tool.start",
        "tool.end",
        "run.end",
        "end",
    ]
    fallback = next(e for e in root["events"] if e["name"] == "tool.fallback")
    assert fallback["kwargs"]["from_tool"] == "mp_api"
    assert fallback["kwargs"]["to_tool"] == "mp_mirror"
    assert fallback["kwargs"]["same_provider"] is True


def test_child_runs_of_the_tool_run_are_the_attempted_routes(traced_tool_runs: dict[str, Any]) -> None:
    failed, answered = traced_tool_runs["children"]
    assert (failed["name"], failed["run_type"], failed["inputs"]) == (
        "mp_api.search",
        "tool",
        {"formula": "Si"},
    )
    assert "InvocationUnavailableError: GET /materials/summary/: ConnectError" in failed["error"]
    assert (answered["name"], answered["run_type"]) == ("mp_mirror.search", "tool")
    assert answered["outputs"]["output"]["records"] == 1
    assert answered.get("error") is None
    assert answered["metadata"]["schemarouter_scope"] == "same_provider"


def test_tool_run_metadata_names_the_route_provider_and_fallbacks(traced_tool_runs: dict[str, Any]) -> None:
    metadata = traced_tool_runs["root"]["metadata"]
    assert metadata["schemarouter_route"] == "mp_mirror.search"
    assert metadata["schemarouter_provider"] == "materials_project"
    assert metadata["schemarouter_fallbacks"] == 1
    assert metadata["schemarouter_routes_tried"] == ["mp_api.search", "mp_mirror.search"]


@pytest.mark.anyio
async def test_agent_traced_with_tracing_context_shows_the_fallback_under_the_tool_run(
    langsmith_capture: LangSmithCapture,
    tracing_client: Client,
    materials_api: MaterialsApiServer,
    refused_url: str,
) -> None:
    agent = make_agent(http_tool(http_router(refused_url, materials_api.url)))
    with tracing_context(client=tracing_client, enabled=True, project_name="agent"):
        answer = await agent.ainvoke(QUESTION)
    tracing_client.flush()
    runs = langsmith_capture.wait_for_runs(6)
    assert answer == "The band gap of Si is 0.6105 eV (mp_mirror.search)."
    (tool_run,) = langsmith_capture.runs_named("materials")
    (agent_run,) = langsmith_capture.runs_named("agent")
    assert tool_run["parent_run_id"] == agent_run["id"]
    assert "tool.fallback" in event_names(tool_run)
    assert [c["name"] for c in langsmith_capture.children_of(tool_run["id"])] == [
        "mp_api.search",
        "mp_mirror.search",
    ]
    assert {r["session_name"] for r in runs} == {"agent"}
