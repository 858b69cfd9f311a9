"""Our side of the anchor comparison: a worker in our virtual environment (JSON lines).

Run by ``benchmarks/anchor_bench.py`` as ``<our venv>/bin/python benchmarks/anchor/ours_side.py``;
it imports the package of this checkout and the shared shapes, never the anchor.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(1, str(Path(__file__).resolve().parents[2]))  # this checkout's package

import protocol
import shapes

from schemarouter_integrations import (
    EndpointSpec,
    FieldSpec,
    InvocationUnavailableError,
    PlanRequest,
    SchemaRouter,
    ToolCall,
    ToolSpec,
)

REQUEST = PlanRequest(
    query=shapes.QUERY,
    arguments=shapes.ARGUMENTS,
    fallback_scope=shapes.SCOPE,
    max_fallbacks=shapes.MAX_FALLBACKS,
)
_routers: dict[int, SchemaRouter] = {}
_revision = 0


def _spec(shape: dict[str, Any]) -> ToolSpec:
    return ToolSpec(
        name=shape["name"],
        provider=shape["provider"],
        access_mode=shape["access_mode"],
        description=shape["description"],
        endpoints=[
            EndpointSpec(
                name=shape["endpoint"],
                read_only=True,
                input_schema=shapes.INPUT_SCHEMA,
                fields=[FieldSpec(**field) for field in shape["fields"]],
            )
        ],
    )


def _route(router: SchemaRouter) -> list[str]:
    return [f"{call.tool}.{call.endpoint}" for call in router.plan(REQUEST).calls]


def _registry(size: int) -> SchemaRouter:
    router = SchemaRouter()
    for i in range(size):
        router.register(_spec(shapes.plan_tool(i)))
    router.plan(REQUEST)  # the first plan after registration, as in plan_bench
    return router


def plan(size: int, warm: int, cold: int) -> dict[str, Any]:
    """Warm plans, then cold ones (one tool re-registered, untimed, before each)."""
    router = _routers.get(size) or _routers.setdefault(size, _registry(size))

    def change() -> None:
        global _revision
        _revision += 1
        router.register(_spec(shapes.plan_tool(size - 1, _revision)))

    return {  # the first plan after building, or the last cold one, left the router warm
        "warm": protocol.timed(lambda: router.plan(REQUEST), warm),
        "cold": protocol.timed(lambda: router.plan(REQUEST), cold, before=change),
        "route": _route(router),
    }


def register(size: int) -> dict[str, float]:
    started = time.perf_counter()
    specs = [_spec(shapes.plan_tool(i)) for i in range(size)]
    built = time.perf_counter() - started
    router = SchemaRouter()
    started = time.perf_counter()
    for spec in specs:
        router.register(spec)
    registered = time.perf_counter() - started
    return {"build": built, "register": registered}


def memory(size: int) -> dict[str, int]:
    return protocol.traced_bytes(lambda: _registry(size), warm=lambda: _registry(1))


async def _down(call: ToolCall) -> Any:
    raise InvocationUnavailableError(f"{call.tool} is down")


async def _answer(call: ToolCall) -> Any:
    return shapes.answer(call.arguments["formula"])


def _chain_router() -> SchemaRouter:
    router = SchemaRouter()
    for tool, (provider, mode, wire) in shapes.CHAIN_ROUTES.items():
        spec = ToolSpec(
            name=tool,
            provider=provider,
            access_mode=mode,
            endpoints=[
                EndpointSpec(
                    name="search",
                    read_only=True,
                    input_schema=shapes.INPUT_SCHEMA,
                    fields=[FieldSpec(**field) for field in shapes.chain_fields(wire)],
                )
            ],
        )
        router.register(spec, _down if tool in shapes.DOWN else _answer)
    return router


def invoke(repeats: int, warmup: int) -> dict[str, Any]:
    """The 4-route chain from a request and from a compiled plan, and one healthy route."""
    router = _chain_router()
    chain = PlanRequest(
        query=shapes.QUERY,
        arguments=shapes.ARGUMENTS,
        preferred_tools=[shapes.DOWN[0]],
        fallback_scope=shapes.SCOPE,
        max_fallbacks=shapes.MAX_FALLBACKS,
    )
    single = PlanRequest(query=shapes.QUERY, arguments=shapes.ARGUMENTS, preferred_tools=[shapes.ANSWERS])
    compiled = router.plan_executable(chain)
    if len(compiled.calls) != 4:
        raise RuntimeError(compiled.explain())

    def reset() -> None:
        for tool in shapes.DOWN:
            router.mark_access_available(tool, "search")

    def check(result: Any) -> None:
        if result.tool != shapes.ANSWERS:
            raise RuntimeError(f"expected {shapes.ANSWERS}, got {result.tool}")

    async def measure() -> dict[str, Any]:
        cases = {"request": lambda: router.invoke(chain), "compiled plan": lambda: router.invoke(compiled)}
        cases["single route"] = lambda: router.invoke(single)
        out: dict[str, Any] = {}
        for name, run in cases.items():
            await protocol.atimed(run, warmup, before=reset, check=check)
            out[name] = await protocol.atimed(run, repeats, before=reset, check=check)
        reset()
        result = await router.invoke(chain)
        out["answer"] = {"route": list(result.route), "records": result.records}
        return out

    return asyncio.run(measure())


def about() -> dict[str, str]:
    import schemarouter_integrations

    return {"package": str(Path(schemarouter_integrations.__file__).parent), "python": sys.version.split()[0]}


if __name__ == "__main__":
    protocol.serve({"plan": plan, "register": register, "memory": memory, "invoke": invoke, "about": about})
