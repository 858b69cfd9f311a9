"""LangChain helpers: the tool over the seed, tool-call messages, an agent loop over the
cookbook's scripted chat model, and the tool over real HTTP."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage
from langchain_core.runnables import Runnable, RunnableConfig, RunnableLambda
from langchain_core.tools import BaseTool

from cookbook.scripted_langchain import ScriptedChemist
from schemarouter_integrations import SchemaRouter
from schemarouter_integrations.langchain import SchemaRouterTool
from tests.support.seed import seed_router

QUESTION = "What is the band gap of Si?"


def materials_tool(*, down: tuple[str, ...] = (), **options: Any) -> SchemaRouterTool:
    """``materials`` over the seed's four tools (those in *down* unavailable), cross-provider by default."""
    router, _ = seed_router(down=down)
    options.setdefault("fallback_scope", "cross_provider")
    return SchemaRouterTool(router=router, name="materials", **options)


def tool_call(args: dict[str, Any] | None = None) -> dict[str, Any]:
    """The tool call a model sends to ``materials`` (by default: ``query="band gap of Si"``)."""
    args = {"query": "band gap of Si"} if args is None else args
    return {"type": "tool_call", "id": "call-1", "name": "materials", "args": args}


def make_agent(tool: BaseTool) -> Runnable[str, str]:
    """A tool-calling loop named ``agent`` around the scripted chemist; it answers with the band
    gap and the route that served it."""
    model = ScriptedChemist(answer_format="The band gap of Si is {band_gap} eV ({route}).").bind_tools([tool])

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


def http_tool(router: SchemaRouter) -> SchemaRouterTool:
    return SchemaRouterTool(router=router, name="materials", fallback_scope="same_provider")
