"""A tool artifact that went through a LangGraph checkpoint is the ToolResult as data, and
``ToolResult.model_validate`` restores it (docs/how-to/langchain.md: "Checkpoints")."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from langchain_core.messages import ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

from cookbook.langchain_agent import build_router
from cookbook.scripted_langchain import ScriptedChemist
from schemarouter_integrations import ToolResult
from schemarouter_integrations.langchain import SchemaRouterTool

pytestmark = pytest.mark.anyio


def agent_with(saver: InMemorySaver) -> Any:
    tool = SchemaRouterTool(router=build_router(), name="materials", fallback_scope="cross_provider")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from langgraph.prebuilt import create_react_agent

        return create_react_agent(ScriptedChemist(), [tool], checkpointer=saver)


def tool_message(messages: list[Any]) -> ToolMessage:
    return next(m for m in messages if isinstance(m, ToolMessage))


async def test_a_checkpointed_artifact_is_restored_with_model_validate() -> None:
    saver = InMemorySaver()
    agent = agent_with(saver)
    config: Any = {"configurable": {"thread_id": "t"}}
    output = await agent.ainvoke({"messages": [("user", "What is the band gap of Si?")]}, config)
    live = tool_message(output["messages"]).artifact
    assert isinstance(live, ToolResult)

    stored = tool_message((await agent.aget_state(config)).values["messages"]).artifact
    restored = ToolResult.model_validate(stored)
    assert isinstance(restored, ToolResult)
    assert restored.model_dump(mode="json") == live.model_dump(mode="json")
    assert (restored.tool, restored.route) == ("mp_python", ["mp_api.search", "mp_python.search"])
    assert [e.type for e in restored.events] == [e.type for e in live.events]
    assert restored.plan is not None and restored.plan.primary == live.plan.primary  # type: ignore[union-attr]


async def test_a_restored_artifact_survives_a_fresh_read_of_the_saver() -> None:
    saver = InMemorySaver()
    agent = agent_with(saver)
    config: Any = {"configurable": {"thread_id": "t"}}
    await agent.ainvoke({"messages": [("user", "What is the band gap of Si?")]}, config)
    checkpoint = await saver.aget_tuple(config)
    assert checkpoint is not None
    stored = tool_message(checkpoint.checkpoint["channel_values"]["messages"]).artifact
    assert isinstance(stored, ToolResult | dict)
    assert ToolResult.model_validate(stored).records == [{"band_gap": 0.61}]
