"""Cached and stale answers are visible where users meet them: the model's content, the MCP
tool's structured content, OpenTelemetry spans and metrics, LangSmith metadata."""

from __future__ import annotations

import json
from typing import Any

import pytest

from schemarouter_integrations import (
    CachePolicy,
    InvocationUnavailableError,
    MemoryAnswerCache,
    PlanRequest,
    SchemaRouter,
)
from schemarouter_integrations._framework.messages import result_content
from tests.support.fakes import FakeClock
from tests.support.otel import recording

pytestmark = pytest.mark.anyio
FIELDS = ["band_gap", "formula"]
POLICY = CachePolicy(ttl_seconds=30, stale_if_error_seconds=600)


def lab_router(clock: FakeClock, state: dict[str, bool]) -> SchemaRouter:
    async def search(formula: str) -> list[dict[str, Any]]:
        if state.get("down"):
            raise InvocationUnavailableError("down")
        return [{"formula": formula, "band_gap": 1.1}]

    router = SchemaRouter(clock=clock, answer_cache=MemoryAnswerCache())
    router.add_callable(search, name="lab", endpoint="search", provider="lab", read_only=True, fields=FIELDS)
    return router


def ask() -> PlanRequest:
    return PlanRequest(query="band gap", arguments={"formula": "Si"}, cache=POLICY)


async def test_the_model_reads_how_old_a_cached_answer_is_and_when_it_is_stale() -> None:
    clock, state = FakeClock(), {}
    router = lab_router(clock, state)
    await router.invoke(ask())
    clock.advance(12)
    fresh = await router.invoke(ask())
    assert "From the answer cache (12 s old)." in result_content(fresh)
    clock.advance(48)
    state["down"] = True
    stale = await router.invoke(ask())
    assert "Every data source is unavailable right now: this is a stale answer from the cache, 60 s old" in (
        result_content(stale)
    )


async def test_the_mcp_tool_takes_cache_and_says_so_in_its_structured_content() -> None:
    from mcp import Client

    from schemarouter_integrations.mcp import router_mcp_server

    router = lab_router(FakeClock(), {})
    server = router_mcp_server(router, cache=POLICY)
    async with Client(server) as client:
        first = await client.call_tool("data_lookup", {"query": "band gap", "formula": "Si"})
        second = await client.call_tool("data_lookup", {"query": "band gap", "formula": "Si"})
    assert first.structured_content is not None and "cache" not in first.structured_content
    assert second.structured_content is not None
    assert second.structured_content["cache"] == {"stale": False, "age_seconds": 0.0}


async def test_the_langchain_tool_takes_cache() -> None:
    from schemarouter_integrations.langchain import SchemaRouterTool

    router = lab_router(FakeClock(), {})
    tool = SchemaRouterTool(router=router, name="materials", cache=POLICY)
    args = {"query": "band gap", "formula": "Si"}
    call = {"type": "tool_call", "id": "c1", "name": "materials", "args": args}
    await tool.ainvoke(call)
    message = await tool.ainvoke({**call, "id": "c2"})
    assert "From the answer cache" in str(message.content)


async def test_spans_and_metrics_show_cache_hits_and_stale_answers() -> None:
    clock, state = FakeClock(), {}
    router = lab_router(clock, state)
    with recording(router) as rec:
        await router.invoke(ask())
        await router.invoke(ask())
        clock.advance(60)
        state["down"] = True
        await router.invoke(ask())
        points = rec.metric_points("schemarouter.cache.answers")
    runs = [s for s in rec.spans if s.name.startswith("execute_tool")]
    assert [(s.attributes["schemarouter.cached"], s.attributes["schemarouter.stale"]) for s in runs] == [
        (False, False),
        (True, False),
        (True, True),
    ]
    assert "cache.hit" in [e.name for e in runs[1].events]
    assert "cache.stale" in [e.name for e in runs[2].events]
    kinds = {p.attributes["schemarouter.cache"]: p.value for p in points}
    assert kinds == {"fresh": 1, "stale": 1}
    assert json.loads(str(runs[1].attributes["metadata"]))["route"] == "lab.search"
