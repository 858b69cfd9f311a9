"""A LangChain agent asks SchemaRouterTool for the band gap of Si while the primary route is down.

Runs offline: ``.venv/bin/python cookbook/langchain_agent.py``.

* Three access paths answer band-gap questions: Materials Project's REST API (primary), its
  Python client, and OQMD's API. The REST API is "down" here (its invoker raises
  ``InvocationUnavailableError``, as the HTTP adapter does for a refused connection).
* The model sees one tool, ``materials``, with the arguments ``query`` and ``formula``;
  the fallback scope and the budget are the application's settings.
* A scripted chat model (``cookbook/scripted_langchain.py``) stands in for a real one so the
  example needs no key or network; replace ``ScriptedChemist()`` with any tool-calling chat
  model (``init_chat_model(...)``).
* ``SchemaRouterCallbackHandler`` prints the router events as they arrive; the fallback is
  among them, and the answer names the route that actually served it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import anyio
from langchain_core.messages import BaseMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cookbook.scripted_langchain import ScriptedChemist
from schemarouter_integrations import (
    EndpointSpec,
    FieldSpec,
    InvocationUnavailableError,
    RouterEvent,
    RunBudget,
    SchemaRouter,
    ServerProjectionSpec,
    ToolCall,
    ToolSpec,
)
from schemarouter_integrations.langchain import SchemaRouterCallbackHandler, SchemaRouterTool

SEARCH_INPUT = {
    "type": "object",
    "properties": {"formula": {"type": "string", "description": "Reduced chemical formula, e.g. Si"}},
    "additionalProperties": False,
}
BAND_GAP = FieldSpec(name="band_gap", aliases=["bandgap", "gap", "밴드갭"], description="Band gap (eV)")


def search(formula_path: str, **options: Any) -> EndpointSpec:
    return EndpointSpec(
        name="search",
        read_only=True,
        input_schema=SEARCH_INPUT,
        fields=[BAND_GAP, FieldSpec(name="formula", path=[formula_path])],
        records_path=["data"],
        **options,
    )


def build_router() -> SchemaRouter:
    router = SchemaRouter()

    async def mp_rest(call: ToolCall) -> Any:
        raise InvocationUnavailableError("GET /materials/summary/: ConnectError (connection refused)")

    async def mp_client(call: ToolCall) -> Any:
        return {"data": [{"material_id": "mp-149", "formula_pretty": "Si", "band_gap": 0.61}]}

    async def oqmd(call: ToolCall) -> Any:
        return {"data": [{"entry_id": 4200, "name": "Si", "band_gap": 0.62}]}

    projection = ServerProjectionSpec(parameter="_fields", field_map={"formula": "formula_pretty"})
    router.register(
        ToolSpec(
            name="mp_api",
            provider="materials_project",
            access_mode="openapi",
            endpoints=[search("formula_pretty", projection=projection)],
        ),
        mp_rest,
    )
    router.register(
        ToolSpec(
            name="mp_python",
            provider="materials_project",
            access_mode="python",
            endpoints=[search("formula_pretty", cost_units=2.0)],
        ),
        mp_client,
    )
    router.register(
        ToolSpec(name="oqmd_api", provider="oqmd", access_mode="openapi", endpoints=[search("name")]),
        oqmd,
    )
    return router


async def run_agent(question: str, tool: BaseTool, callbacks: list[Any]) -> str:
    """A minimal tool-calling loop: ask the model, run the tools it calls, until it answers."""
    model = ScriptedChemist().bind_tools([tool])
    config: RunnableConfig = {"callbacks": callbacks}
    messages: list[BaseMessage] = [HumanMessage(question)]
    while True:
        reply = await model.ainvoke(messages, config)
        messages.append(reply)
        if not reply.tool_calls:
            return str(reply.content)
        for call in reply.tool_calls:
            result = await tool.ainvoke(call, config)
            print(f"\n[tool message to the model]\n{result.content}\n")
            messages.append(result)


def show(event: RouterEvent) -> None:
    data = event.payload()
    if event.type == "tool.fallback":
        print(
            f"  {event.type:<17} {data['from_tool']}.{data['from_endpoint']} -> "
            f"{data['to_tool']}.{data['to_endpoint']} ({data['scope']}, reason={data['reason']})"
        )
    elif event.type in ("tool.start", "tool.end", "tool.error"):
        detail = data.get("error") or data.get("server_projection") or ""
        print(f"  {event.type:<17} {data['tool']}.{data['endpoint']} {detail}")
    else:
        print(f"  {event.type}")


async def main() -> None:
    router = build_router()
    tool = SchemaRouterTool(
        router=router,
        name="materials",
        fallback_scope="cross_provider",
        max_fallbacks=2,
        budget=RunBudget(max_tool_calls=3),
    )
    print(f"Tool description the model sees:\n{tool.description}\n")
    print(f"Arguments the model may set: {sorted(tool.args)}\n")
    handler = SchemaRouterCallbackHandler(on_event=show)
    print("Router events:")
    answer = await run_agent("What is the band gap of Si?", tool, [handler])
    print(f"Agent: {answer}")
    for hop in handler.fallbacks:
        print(f"Fallback seen by the callback handler: {hop.from_tool} -> {hop.to_tool} ({hop.reason})")
    print(f"In cooldown now: {router.inspect().execution.unavailable_access_paths}")


if __name__ == "__main__":
    anyio.run(main)
