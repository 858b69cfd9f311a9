"""A one-route answer against bare tools over the same plain function, side by side.

One healthy in-process route (``add_callable`` over ``band_gaps``), no network, no callback,
no listener. For each face three tools answer the same question, timed alternately in the
same run (medians):

* **plain**: the framework's bare tool over ``band_gaps`` itself (what a user would write
  without the router);
* **bare over invoke**: the framework's bare tool whose function calls ``router.invoke`` and
  formats the records as the model reads them (isolates what the face adds);
* **ours**: the face (``SchemaRouterTool``, ``SchemaRouterToolSpec``'s ``FunctionTool``,
  ``router_mcp_server``'s tool).

MCP is measured server-side (``MCPServer.call_tool``, no transport): a bare ``@server.tool()``
over ``band_gaps`` against the router's tool. Ratios are ours / plain and ours / bare over
invoke; targets in :data:`TARGETS`.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from schemarouter_integrations import PlanRequest, SchemaRouter
from schemarouter_integrations._framework import result_content

REPEATS = 1500
WARMUP = 150
TARGETS = {
    "langchain_vs_plain": 1.5,
    "llamaindex_vs_plain": 2.0,
    "langchain_face": 1.1,
    "llamaindex_face": 1.1,
    "mcp_call_tool_vs_plain": 1.3,
}
Call = Callable[[], Awaitable[Any]]


async def band_gaps(formula: str = "Si") -> list[dict[str, Any]]:
    """Band gaps of a formula (in-process, instant; a coroutine, so no tool hops to a thread)."""
    return [{"material_id": "mp-149", "formula": formula, "band_gap": 0.61}]


def _router() -> SchemaRouter:
    router = SchemaRouter()
    router.add_callable(band_gaps, name="mp_python", provider="materials_project", read_only=True)
    return router


async def _via_invoke(router: SchemaRouter, query: str, formula: str | None) -> str:
    request = PlanRequest(query=query, arguments={"formula": formula} if formula else {})
    return result_content(await router.invoke(request))


async def _plain_text(query: str, formula: str | None = None) -> str:
    return repr(await band_gaps(formula or "Si"))


def langchain_calls() -> dict[str, Call]:
    from langchain_core.tools import StructuredTool

    from schemarouter_integrations.langchain import SchemaRouterTool

    router = _router()

    async def plain(query: str, formula: str | None = None) -> str:
        return await _plain_text(query, formula)

    async def bare(query: str, formula: str | None = None) -> str:
        return await _via_invoke(router, query, formula)

    call = {"type": "tool_call", "id": "call-1", "name": "materials",
            "args": {"query": "band gap of Si", "formula": "Si"}}  # fmt: skip
    tools = {
        "plain": StructuredTool.from_function(coroutine=plain, name="materials", description="Band gaps."),
        "bare": StructuredTool.from_function(coroutine=bare, name="materials", description="Band gaps."),
        "ours": SchemaRouterTool(router=router, name="materials"),
    }
    return {name: (lambda t=tool: t.ainvoke(call)) for name, tool in tools.items()}


def llamaindex_calls() -> dict[str, Call]:
    from llama_index.core.tools import FunctionTool

    from schemarouter_integrations.llamaindex import SchemaRouterToolSpec

    router = _router()

    async def plain(query: str, formula: str | None = None) -> str:
        """Band gaps."""
        return await _plain_text(query, formula)

    async def bare(query: str, formula: str | None = None) -> str:
        """Band gaps."""
        return await _via_invoke(router, query, formula)

    tools = {
        "plain": FunctionTool.from_defaults(async_fn=plain, name="materials"),
        "bare": FunctionTool.from_defaults(async_fn=bare, name="materials"),
        "ours": SchemaRouterToolSpec(router, name="materials").to_tool_list()[0],
    }
    return {
        name: (lambda t=tool: t.acall(query="band gap of Si", formula="Si")) for name, tool in tools.items()
    }


def mcp_calls() -> dict[str, Call]:
    from mcp.server import MCPServer

    from schemarouter_integrations.mcp import router_mcp_server

    router = _router()
    bare = MCPServer("bare")

    @bare.tool()
    async def materials(query: str, formula: str | None = None) -> list[dict[str, Any]]:
        """Band gaps."""
        return await band_gaps(formula or "Si")

    ours = router_mcp_server(router, tool_name="materials")
    arguments = {"query": "band gap of Si", "formula": "Si"}
    return {
        "plain": lambda: bare.call_tool("materials", dict(arguments)),
        "ours": lambda: ours.call_tool("materials", dict(arguments)),
    }


async def _alternate(calls: dict[str, Call], repeats: int = REPEATS) -> dict[str, float]:
    """Median CPU ms of each call (``time.thread_time``: the machine is shared, and CPU time
    is far less disturbed by other load than wall time), one after the other in each repeat."""
    for _ in range(WARMUP):
        for call in calls.values():
            await call()
    samples: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(repeats):
        for name, call in calls.items():
            start = time.thread_time()
            await call()
            samples[name].append(time.thread_time() - start)
    return {name: statistics.median(values) * 1000 for name, values in samples.items()}


def main() -> dict[str, float]:
    results: dict[str, float] = {}
    faces = {"langchain": langchain_calls, "llamaindex": llamaindex_calls, "mcp": mcp_calls}
    for face, build in faces.items():
        try:
            calls = build()
        except ImportError as exc:
            print(f"{face}: skipped ({exc})")
            continue
        medians = anyio.run(_alternate, calls)
        for name, value in medians.items():
            results[f"one_route.{face}.{name}_ms"] = round(value, 4)
        vs_plain = medians["ours"] / medians["plain"]
        key = "mcp_call_tool_vs_plain" if face == "mcp" else f"{face}_vs_plain"
        results[f"one_route.{key}"] = round(vs_plain, 3)
        line = f"{face:<11}" + "  ".join(f"{n} {v:.4f} ms" for n, v in medians.items())
        line += f"  ours/plain {vs_plain:.2f}x (target <= {TARGETS[key]})"
        if "bare" in medians:
            face_only = medians["ours"] / medians["bare"]
            results[f"one_route.{face}_face"] = round(face_only, 3)
            line += f"  ours/bare-over-invoke {face_only:.2f}x (target <= {TARGETS[f'{face}_face']})"
        print(line)
    return results


if __name__ == "__main__":
    main()
