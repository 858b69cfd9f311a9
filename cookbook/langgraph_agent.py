"""A LangGraph agent with a checkpointer: the tool's ToolResult survives the checkpoint.

Runs offline: ``python cookbook/langgraph_agent.py``.

* LangGraph's prebuilt ReAct agent (``create_react_agent``) with the scripted chat model
  (``cookbook/scripted_langchain.py``) and ``SchemaRouterTool`` over the router of
  ``cookbook/langchain_agent.py`` (the MP REST API is down; the Python client answers).
* Router events are LangChain custom events: ``astream_events(version="v2")`` shows them live.
* ``InMemorySaver`` keeps the conversation. LangGraph stores messages through
  ``model_dump()``, so the ``ToolMessage.artifact`` of a restored state is the ToolResult *as
  data*; ``ToolResult.model_validate(artifact)`` gives the ToolResult back, equal to the live
  one as data (``plan.rejected`` is not part of a dump and comes back empty).
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path
from typing import Any

import anyio
from langchain_core.messages import ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cookbook.langchain_agent import build_router
from cookbook.scripted_langchain import ScriptedChemist
from schemarouter_integrations import ToolResult
from schemarouter_integrations.langchain import SchemaRouterTool


def make_agent(tool: SchemaRouterTool, checkpointer: InMemorySaver) -> Any:
    with warnings.catch_warnings():  # LangGraph 1.x points to langchain.agents.create_agent
        warnings.simplefilter("ignore")
        from langgraph.prebuilt import create_react_agent

        return create_react_agent(ScriptedChemist(), [tool], checkpointer=checkpointer)


async def main() -> None:
    router = build_router()
    tool = SchemaRouterTool(router=router, name="materials", fallback_scope="cross_provider", max_fallbacks=2)
    agent = make_agent(tool, InMemorySaver())
    config: Any = {"configurable": {"thread_id": "band-gaps"}}
    print("Streaming the agent run (router events are LangChain custom events):")
    async for item in agent.astream_events(
        {"messages": [("user", "What is the band gap of Si?")]}, config, version="v2"
    ):
        if item["event"] == "on_custom_event" and item["name"] in {"tool.error", "tool.fallback", "tool.end"}:
            data = item["data"]
            where = data.get("to_tool") or data.get("tool")
            print(f"  {item['name']:<14} {where} {data.get('scope', '')}")
    state = await agent.aget_state(config)
    print(f"Agent: {state.values['messages'][-1].content}")

    stored = next(m for m in state.values["messages"] if isinstance(m, ToolMessage)).artifact
    result = ToolResult.model_validate(stored)
    print(f"Checkpointed artifact: {type(stored).__name__}; restored: {type(result).__name__}")
    print(f"Restored ToolResult: {result.tool}.{result.endpoint}, route {result.route}")
    print(f"  records: {result.records}")


if __name__ == "__main__":
    anyio.run(main)
