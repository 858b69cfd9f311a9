"""Router events as LangChain custom events, and attempted routes as child tool runs."""

from __future__ import annotations

import pytest
from langchain_core.tracers.base import BaseTracer
from langchain_core.tracers.schemas import Run

from schemarouter_integrations import ToolResult
from schemarouter_integrations.langchain import SchemaRouterCallbackHandler
from tests.support.langchain import materials_tool, tool_call


class RunCollector(BaseTracer):
    """Keeps every finished root run with its child runs, in memory."""

    def __init__(self) -> None:
        super().__init__()
        self.roots: list[Run] = []

    def _persist_run(self, run: Run) -> None:
        self.roots.append(run)


def test_every_router_event_is_a_custom_event_named_by_its_type() -> None:
    handler = SchemaRouterCallbackHandler()
    result = materials_tool(down=("mp_api",)).invoke(tool_call(), config={"callbacks": [handler]}).artifact
    assert handler.types_seen == [e.type for e in result.events] + ["run.end"]
    assert "tool.fallback" in handler.types_seen


def test_custom_event_payload_is_the_router_event_as_json() -> None:
    handler = SchemaRouterCallbackHandler()
    result = materials_tool(down=("mp_api",)).invoke(tool_call(), config={"callbacks": [handler]}).artifact
    assert [e.model_dump(mode="json") for e in handler.events[:-1]] == [
        e.model_dump(mode="json") for e in result.events
    ]
    run_end = handler.events[-1]
    assert isinstance(getattr(run_end, "result", None), ToolResult)


def test_callback_handler_collects_the_fallback_with_from_and_to_routes() -> None:
    handler = SchemaRouterCallbackHandler()
    materials_tool(down=("mp_api", "mp_optimade", "mp_python")).invoke(
        tool_call(), config={"callbacks": [handler]}
    )
    hops = [(f.from_tool, f.to_tool, f.scope, f.same_provider) for f in handler.fallbacks]
    assert hops == [
        ("mp_api", "mp_optimade", "same_provider", True),
        ("mp_optimade", "mp_python", "same_provider", True),
        ("mp_python", "oqmd_api", "cross_provider", False),
    ]


def test_events_are_grouped_by_the_tool_run_that_dispatched_them() -> None:
    handler = SchemaRouterCallbackHandler()
    tool = materials_tool(down=("mp_api",))
    tool.invoke(tool_call(), config={"callbacks": [handler]})
    tool.invoke(tool_call(), config={"callbacks": [handler]})
    assert [len(events) for events in handler.by_run.values()] == [9, 5]


def test_callback_handler_can_be_limited_to_some_event_types() -> None:
    handler = SchemaRouterCallbackHandler(types=["tool.fallback"])
    materials_tool(down=("mp_api",)).invoke(tool_call(), config={"callbacks": [handler]})
    assert handler.types_seen == ["tool.fallback"]


@pytest.mark.anyio
async def test_async_tool_dispatches_the_same_events() -> None:
    handler = SchemaRouterCallbackHandler()
    message = await materials_tool(down=("mp_api",)).ainvoke(tool_call(), config={"callbacks": [handler]})
    assert handler.types_seen == [e.type for e in message.artifact.events] + ["run.end"]


@pytest.mark.anyio
async def test_astream_events_v2_sees_the_fallback_under_the_tool_run() -> None:
    tool = materials_tool(down=("mp_api",))
    events = [e async for e in tool.astream_events({"query": "band gap of Si"}, version="v2")]
    tool_run_id = next(
        e["run_id"] for e in events if e["event"] == "on_tool_start" and e["name"] == "materials"
    )
    fallbacks = [e for e in events if e["event"] == "on_custom_event" and e["name"] == "tool.fallback"]
    assert len(fallbacks) == 1
    assert fallbacks[0]["run_id"] == tool_run_id
    assert fallbacks[0]["data"]["to_tool"] == "mp_optimade"


def test_each_attempted_route_is_a_child_tool_run() -> None:
    collector = RunCollector()
    materials_tool(down=("mp_api",)).invoke(tool_call(), config={"callbacks": [collector]})
    (root,) = collector.roots
    children = [(c.name, c.run_type, c.inputs, c.outputs, c.error) for c in root.child_runs]
    assert [c[:3] for c in children] == [
        ("mp_api.search", "tool", {}),
        ("mp_optimade.search", "tool", {}),
    ]
    assert "InvocationUnavailableError: mp_api is down" in (children[0][4] or "")
    assert children[1][3] is not None and children[1][3]["output"]["records"] == 1
    assert children[1][4] is None


def test_route_child_runs_carry_the_call_arguments_and_route_metadata() -> None:
    collector = RunCollector()
    materials_tool(down=("mp_api",)).invoke(
        {**tool_call(), "args": {"query": "band gap", "formula": "Si"}}, config={"callbacks": [collector]}
    )
    child = collector.roots[0].child_runs[1]
    assert child.inputs == {"formula": "Si"}
    assert child.metadata["schemarouter_scope"] == "same_provider"
    assert child.metadata["schemarouter_provider"] == "materials_project"


@pytest.mark.anyio
async def test_without_a_parent_run_nothing_is_dispatched_and_the_tool_still_answers() -> None:
    content = await materials_tool(down=("mp_api",))._arun("band gap of Si")
    assert content.startswith("Answered by mp_optimade.search")
