"""Answers from the answer cache in LangSmith (the real ``langsmith`` client posting to a
loopback capture): the second, identical question is a tool run whose metadata says it was
served from the cache and whose events include ``cache.hit``; the route was called once."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.tracers import LangChainTracer
from langsmith import Client

from schemarouter_integrations import CachePolicy, MemoryAnswerCache, SchemaRouter
from schemarouter_integrations.langchain import SchemaRouterTool
from tests.servers.langsmith_capture import LangSmithCapture

pytestmark = pytest.mark.integration

CALLS: list[str] = []


def band_gap(formula: str) -> list[dict[str, Any]]:
    """Band gap of a material by formula."""
    CALLS.append(formula)
    return [{"formula": formula, "band_gap": 1.1}]


def _tool_call(call_id: str) -> dict[str, Any]:
    return {
        "type": "tool_call",
        "id": call_id,
        "name": "materials",
        "args": {"query": "band gap", "formula": "Si"},
    }


def test_a_cached_answer_is_marked_in_the_langsmith_run(
    langsmith_capture: LangSmithCapture, tracing_client: Client
) -> None:
    CALLS.clear()
    router = SchemaRouter(answer_cache=MemoryAnswerCache())
    router.add_callable(band_gap, name="mp_python", provider="materials_project", read_only=True)
    tool = SchemaRouterTool(router=router, name="materials", cache=CachePolicy(ttl_seconds=600))
    tracer = LangChainTracer(client=tracing_client, project_name="cache")

    tool.invoke(_tool_call("c1"), config={"callbacks": [tracer]})
    tool.invoke(_tool_call("c2"), config={"callbacks": [tracer]})
    tracing_client.flush()

    runs = langsmith_capture.wait_for_runs(2)
    roots = sorted(
        (r for r in runs if not r.get("parent_run_id") and r.get("name") == "materials"),
        key=lambda r: str(r.get("start_time")),
    )
    assert len(roots) == 2
    first, second = roots
    assert CALLS == ["Si"]
    assert first["metadata"]["schemarouter_cached"] is False
    assert second["metadata"]["schemarouter_cached"] is True
    assert second["metadata"]["schemarouter_stale"] is False
    assert second["metadata"]["schemarouter_cache_age_seconds"] >= 0
    assert "cache.hit" in [e["name"] for e in second.get("events") or []]
    assert "cache.hit" not in [e["name"] for e in first.get("events") or []]
