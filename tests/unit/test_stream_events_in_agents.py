"""Router events in the agent frameworks' own streams: LangGraph's ``stream_mode="custom"``
and a LlamaIndex agent workflow's ``stream_events()``; outside them nothing changes."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import HumanMessage

from cookbook.scripted_langchain import ScriptedChemist
from schemarouter_integrations.llamaindex import RouterStreamEvent, SchemaRouterToolSpec
from tests.support.langchain import QUESTION, materials_tool
from tests.support.llamaindex import function_calling_llm
from tests.support.seed import seed_router

pytestmark = pytest.mark.anyio


def react_graph(tool: Any) -> Any:
    from langgraph.prebuilt import create_react_agent

    return create_react_agent(ScriptedChemist(), [tool])


async def test_langgraph_custom_stream_shows_the_fallback() -> None:
    graph = react_graph(materials_tool(down=("mp_api",)))
    chunks = [c async for c in graph.astream({"messages": [HumanMessage(QUESTION)]}, stream_mode="custom")]
    types = [c["type"] for c in chunks]
    assert types[0] == "run.start" and types[-1] == "run.end"
    (fallback,) = [c for c in chunks if c["type"] == "tool.fallback"]
    assert (fallback["from_tool"], fallback["to_tool"], fallback["reason"]) == (
        "mp_api",
        "mp_optimade",
        "unavailable",
    )
    end = chunks[-1]
    assert end["result"]["access_path"] == "mp_optimade.search"
    assert "records" not in end["result"] or isinstance(end["result"]["records"], int)


async def test_langgraph_custom_stream_with_other_modes_keeps_the_events_apart() -> None:
    graph = react_graph(materials_tool(down=("mp_api",)))
    seen = [
        mode
        async for mode, _ in graph.astream(
            {"messages": [HumanMessage(QUESTION)]}, stream_mode=["updates", "custom"]
        )
    ]
    assert "custom" in seen and "updates" in seen


def test_outside_a_graph_the_tool_writes_to_no_stream() -> None:
    message = materials_tool(down=("mp_api",)).invoke(
        {"type": "tool_call", "id": "c1", "name": "materials", "args": {"query": "band gap of Si"}}
    )
    assert message.artifact.access_path == "mp_optimade.search"


async def test_llamaindex_agent_workflow_streams_the_router_events() -> None:
    from llama_index.core.agent.workflow import FunctionAgent

    router, _ = seed_router(down=("mp_api",))
    spec = SchemaRouterToolSpec(router, name="materials", fallback_scope="cross_provider")
    agent = FunctionAgent(tools=spec.to_tool_list(), llm=function_calling_llm("materials"))
    handler = agent.run(user_msg=QUESTION)
    streamed = [e async for e in handler.stream_events()]
    await handler
    routed = [e for e in streamed if isinstance(e, RouterStreamEvent)]
    types = [e.router_event_type for e in routed]
    assert types[0] == "run.start" and types[-1] == "run.end"
    (fallback,) = [e for e in routed if e.router_event_type == "tool.fallback"]
    assert (fallback.data["from_tool"], fallback.data["to_tool"]) == ("mp_api", "mp_optimade")
    assert len({e.run_id for e in routed}) == 1


async def test_llamaindex_tool_outside_a_workflow_needs_no_context() -> None:
    router, _ = seed_router(down=("mp_api",))
    (tool,) = SchemaRouterToolSpec(router, fallback_scope="cross_provider").to_tool_list()
    output = await tool.acall(query="band gap of Si", formula="Si")
    assert not output.is_error
    assert output.raw_output.access_path == "mp_optimade.search"
    assert "schemarouter_workflow_context" not in output.raw_input["kwargs"]
    assert tool.call(query="band gap of Si").raw_output.access_path == "mp_optimade.search"
