"""A LlamaIndex agent asks for a band gap while the Materials Project native API is down.

The router is the agent's one data tool. The native API fails (a simulated 503), so the
router falls back to the same provider's OPTIMADE path, as the application allowed; a
LlamaIndex event handler sees the fallback as a ``ToolFallbackEvent``. Everything runs
offline: the "LLM" is LlamaIndex's ``MockFunctionCallingLLM`` with a scripted reply
(``cookbook/scripted_llamaindex.py``); put a real function-calling LLM (``OpenAI(model=...)``,
...) in its place for a live agent.

Run: .venv/bin/python cookbook/llamaindex_agent.py
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any, TypedDict

from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.instrumentation import get_dispatcher
from llama_index.core.instrumentation.event_handlers import BaseEventHandler
from llama_index.core.instrumentation.events import BaseEvent

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cookbook.scripted_llamaindex import scripted_llm
from schemarouter_integrations import FieldSpec, InvocationUnavailableError, SchemaRouter
from schemarouter_integrations.llamaindex import SchemaRouterEvent, SchemaRouterToolSpec, ToolFallbackEvent


class Material(TypedDict):
    material_id: str
    formula: str
    band_gap: float


MATERIALS = [
    Material(material_id="mp-149", formula="Si", band_gap=0.61),
    Material(material_id="mp-2534", formula="GaAs", band_gap=0.19),
]
BAND_GAP = FieldSpec(name="band_gap", aliases=["bandgap", "gap", "밴드갭"], description="Band gap (eV)")
FIELDS = [BAND_GAP, "formula", "material_id"]


async def mp_native_api(formula: str) -> list[Material]:
    """Materials Project native REST API (here: in an outage)."""
    raise InvocationUnavailableError("api.materialsproject.org answered 503 (simulated outage)")


async def mp_optimade(formula: str) -> list[Material]:
    """Materials Project through OPTIMADE."""
    return [m for m in MATERIALS if m["formula"] == formula]


async def oqmd_api(formula: str) -> list[Material]:
    """OQMD, another provider: used only if the application allows cross-provider fallback."""
    return []


def materials_router() -> SchemaRouter:
    router = SchemaRouter()
    common: dict[str, Any] = {"endpoint": "search", "read_only": True, "fields": FIELDS}
    router.add_callable(
        mp_native_api, name="mp_api", provider="materials_project", access_mode="openapi", **common
    )
    router.add_callable(
        mp_optimade, name="mp_optimade", provider="materials_project", access_mode="optimade", **common
    )
    router.add_callable(oqmd_api, name="oqmd_api", provider="oqmd", access_mode="openapi", **common)
    return router


class PrintRouterEvents(BaseEventHandler):
    """A LlamaIndex event handler: prints the router's events as they happen."""

    def handle(self, event: BaseEvent, **kwargs: Any) -> None:
        if isinstance(event, ToolFallbackEvent):
            print(
                f"  [fallback] {event.from_tool}.{event.from_endpoint} -> {event.to_tool}.{event.to_endpoint}"
                f" ({event.to_access_mode}, same provider: {event.same_provider}, reason: {event.reason})"
            )
        elif isinstance(event, SchemaRouterEvent):
            print(f"  [{event.router_event_type}] span={event.span_id}")


async def main() -> None:
    router = materials_router()
    # Scope, preferred tools and budget are the application's choice; the model never sees them.
    spec = SchemaRouterToolSpec(
        router, name="materials_lookup", fallback_scope="same_provider", preferred_tools=["mp_api"]
    )
    tools = spec.to_tool_list()
    print("Tool description the model reads:\n" + tools[0].metadata.description)
    print("Arguments the model may send:", sorted(tools[0].metadata.get_parameters_dict()["properties"]))

    handler = PrintRouterEvents()
    root = get_dispatcher()
    root.add_event_handler(handler)
    try:
        agent = FunctionAgent(tools=tools, llm=scripted_llm("materials_lookup"))
        print("\nUser: What is the band gap of Si?")
        answer = await agent.run("What is the band gap of Si?")
    finally:
        root.event_handlers = [h for h in root.event_handlers if h is not handler]

    print(f"\nAgent: {answer.response.content}")
    result = answer.tool_calls[0].tool_output.raw_output
    print(
        f"\nAnswered by {result.access_path} ({result.provider}/{result.access_mode}); route: {result.route}"
    )
    print("Cooling down:", router.inspect().execution.unavailable_access_paths)


if __name__ == "__main__":
    asyncio.run(main())
