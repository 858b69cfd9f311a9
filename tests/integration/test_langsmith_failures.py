"""LangSmith traces of failed tool calls (real client, loopback capture), and the tool run's
compact outputs: the records and a route summary, not the whole result."""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.tracers import LangChainTracer
from langsmith import Client

from tests.servers.langsmith_capture import LangSmithCapture
from tests.support.langchain import materials_tool, tool_call

pytestmark = pytest.mark.integration

ALL = ("mp_api", "mp_optimade", "mp_python", "oqmd_api")
MAX_OUTPUTS_BYTES = 1024
"""Seed chain, one record: the tool-run outputs were 5,923 bytes (the whole ToolResult), now 228."""


def traced(tool: Any, capture: LangSmithCapture, client: Client, args: dict[str, Any] | None = None) -> Any:
    tracer = LangChainTracer(client=client, project_name="failures")
    message = tool.invoke(tool_call(args), config={"callbacks": [tracer]})
    client.flush()
    runs = capture.wait_for_runs(1)
    (root,) = [r for r in runs if not r.get("parent_run_id")]
    return message, root


def test_an_all_down_run_is_an_error_run_with_the_routes_and_reasons(
    langsmith_capture: LangSmithCapture, tracing_client: Client
) -> None:
    message, root = traced(materials_tool(down=ALL), langsmith_capture, tracing_client)
    assert message.status == "error"
    assert root["error"].startswith("AllRoutesUnavailableError: ")
    metadata = root["metadata"]
    assert metadata["schemarouter_error_type"] == "AllRoutesUnavailableError"
    assert metadata["schemarouter_routes_tried"] == [f"{t}.search" for t in ALL]
    reasons = [a["error"] for a in metadata["schemarouter_attempts"]]
    assert reasons == [f"{t} is down" for t in ALL]
    assert metadata["schemarouter_fallbacks"] == 3


def test_the_error_message_carries_a_json_failure_summary_as_artifact(
    langsmith_capture: LangSmithCapture, tracing_client: Client
) -> None:
    message, root = traced(materials_tool(down=ALL), langsmith_capture, tracing_client)
    summary = message.artifact
    assert json.loads(json.dumps(summary)) == summary
    assert summary["error_type"] == "AllRoutesUnavailableError"
    assert [a["access_path"] for a in summary["attempts"]] == [f"{t}.search" for t in ALL]
    assert root["outputs"] == {"error": summary}


def test_no_route_and_budget_failures_are_error_runs_too(
    langsmith_capture: LangSmithCapture, tracing_client: Client
) -> None:
    from schemarouter_integrations import RunBudget

    message, root = traced(
        materials_tool(fields=["melting_point"]),
        langsmith_capture,
        tracing_client,
        {"query": "melting point"},
    )
    assert message.status == "error" and root["error"].startswith("NoRouteError: ")
    assert message.artifact["error_type"] == "NoRouteError"
    langsmith_capture.reset()
    client = langsmith_capture.client()
    message, root = traced(
        materials_tool(down=("mp_api",), budget=RunBudget(max_tool_calls=1)), langsmith_capture, client
    )
    assert message.status == "error" and root["error"].startswith("BudgetExceededError: ")
    assert root["metadata"]["schemarouter_routes_tried"] == ["mp_api.search"]


def test_the_tool_run_outputs_are_the_records_and_a_route_summary(
    langsmith_capture: LangSmithCapture, tracing_client: Client
) -> None:
    message, root = traced(materials_tool(down=("mp_api",)), langsmith_capture, tracing_client)
    assert message.artifact.access_path == "mp_optimade.search"
    outputs = root["outputs"]
    assert outputs["records"] == [{"band_gap": 0.61}]
    assert outputs["route"]["access_path"] == "mp_optimade.search"
    assert outputs["route"]["routes_tried"] == ["mp_api.search", "mp_optimade.search"]
    assert len(json.dumps(outputs)) < MAX_OUTPUTS_BYTES
