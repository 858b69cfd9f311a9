"""An offline agent loop: a fake tool-calling chat model asks SchemaRouterTool about Si.

The primary route (mp_api) is down; the agent still answers, and the fallback shows up in
the callback handler and in ``astream_events(version="v2")``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable, RunnableConfig, RunnableLambda
from langchain_core.tools import BaseTool
from pydantic import Field

from schemarouter_integrations.langchain import SchemaRouterCallbackHandler, SchemaRouterTool
from tests.unit.seed import seed_router

QUESTION = "What is the band gap of Si?"


class ScriptedChemist(BaseChatModel):
    """Calls the bound tool once for the question, then answers from the tool's records."""

    tool_names: list[str] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted-chemist"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable[Any, AIMessage]:
        return self.model_copy(update={"tool_names": [t.name for t in tools]})

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        last = messages[-1]
        if isinstance(last, ToolMessage):
            lines = str(last.content).splitlines()
            records = [json.loads(line) for line in lines if line.startswith("{")]
            route = lines[0].removeprefix("Answered by ").split(" ")[0]
            reply = AIMessage(content=f"The band gap of Si is {records[0]['band_gap']} eV ({route}).")
        else:
            call = {
                "name": self.tool_names[0],
                "args": {"query": str(last.content), "formula": "Si"},
                "id": "call-1",
                "type": "tool_call",
            }
            reply = AIMessage(content="", tool_calls=[call])
        return ChatResult(generations=[ChatGeneration(message=reply)])


def make_agent(tool: BaseTool) -> Runnable[str, str]:
    model = ScriptedChemist().bind_tools([tool])

    async def agent(question: str, config: RunnableConfig) -> str:
        messages: list[BaseMessage] = [HumanMessage(question)]
        while True:
            reply = await model.ainvoke(messages, config)
            messages.append(reply)
            if not reply.tool_calls:
                return str(reply.content)
            for call in reply.tool_calls:
                messages.append(await tool.ainvoke(call, config))

    return RunnableLambda(agent, name="agent")


def make_tool() -> SchemaRouterTool:
    router, _ = seed_router(down=("mp_api",))
    return SchemaRouterTool(router=router, name="materials", fallback_scope="cross_provider")


@pytest.mark.anyio
async def test_agent_answers_with_the_primary_route_down() -> None:
    answer = await make_agent(make_tool()).ainvoke(QUESTION)
    assert answer == "The band gap of Si is 0.61 eV (mp_optimade.search)."


@pytest.mark.anyio
async def test_callback_handler_sees_the_fallback_of_the_agent_run() -> None:
    handler = SchemaRouterCallbackHandler()
    await make_agent(make_tool()).ainvoke(QUESTION, config={"callbacks": [handler]})
    (fallback,) = handler.fallbacks
    assert (fallback.from_tool, fallback.to_tool, fallback.reason) == ("mp_api", "mp_optimade", "unavailable")
    assert handler.types_seen[-1] == "run.end"


@pytest.mark.anyio
async def test_astream_events_v2_shows_the_fallback_inside_the_agent_run() -> None:
    agent = make_agent(make_tool())
    events = [e async for e in agent.astream_events(QUESTION, version="v2")]
    custom = [e for e in events if e["event"] == "on_custom_event"]
    fallback = next(e for e in custom if e["name"] == "tool.fallback")
    agent_run = events[0]["run_id"]
    assert agent_run in fallback["parent_ids"]
    assert (fallback["data"]["from_tool"], fallback["data"]["to_tool"]) == ("mp_api", "mp_optimade")
    assert events[-1]["data"]["output"] == "The band gap of Si is 0.61 eV (mp_optimade.search)."
