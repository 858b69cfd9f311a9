"""The anchor's side of the comparison: a worker in the anchor's own virtual environment.

Run by ``benchmarks/anchor_bench.py`` as ``benchmarks/.anchor-venv/bin/python -E -s
benchmarks/anchor/anchor_side.py``; it imports PyPI ``schemarouter`` 0.17.0 and the shared
shapes, and refuses to start when this checkout's package is importable. Only documented
calls are used (see ``benchmarks/anchor/__init__.py``).
"""

from __future__ import annotations

import asyncio
import importlib.util
import sys
import time
from importlib.metadata import version
from typing import Any

import protocol
import shapes

if importlib.util.find_spec("schemarouter_integrations") is not None:
    sys.exit("anchor worker: schemarouter_integrations is importable here; refusing to mix the two")

from schemarouter import (
    EndpointSpec,
    FieldSpec,
    InvocationUnavailableError,
    ParameterSpec,
    PlanRequest,
    SchemaRouter,
    ToolSpec,
)

REQUEST = PlanRequest(
    query=shapes.QUERY,
    arguments=shapes.ARGUMENTS,
    fallback_scope=shapes.SCOPE,
    max_fallbacks=shapes.MAX_FALLBACKS,
)
# The anchor takes its argument allowlist from ``parameters`` (without it, ``formula`` is
# dropped as an undeclared argument); ours reads the same from ``input_schema``.
PARAMETERS = [ParameterSpec(name="formula", json_schema={"type": "string"})]
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
                parameters=PARAMETERS,
                output_fields=[FieldSpec(**field) for field in shape["fields"]],
            )
        ],
    )


def _route(router: SchemaRouter, request: PlanRequest = REQUEST) -> list[str]:
    plan = router.plan(request)
    calls = list(plan.calls[:1])
    for fallback in plan.fallback_routes:
        calls.extend(fallback.alternatives)
    return [f"{call.tool}.{call.endpoint}" for call in calls]


def _registry(size: int) -> SchemaRouter:
    router = SchemaRouter()
    for i in range(size):
        router.add_tool(_spec(shapes.plan_tool(i)))
    router.plan(REQUEST)
    return router


def plan(size: int, warm: int, cold: int) -> dict[str, Any]:
    """Warm plans, then cold ones (one tool replaced, untimed, before each)."""
    router = _routers.get(size) or _routers.setdefault(size, _registry(size))

    def change() -> None:
        global _revision
        _revision += 1
        router.add_tool(_spec(shapes.plan_tool(size - 1, _revision)), replace=True)

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
        router.add_tool(spec)
    registered = time.perf_counter() - started
    return {"build": built, "register": registered}


def memory(size: int) -> dict[str, int]:
    return protocol.traced_bytes(lambda: _registry(size), warm=lambda: _registry(1))


async def _down(endpoint: str, arguments: dict[str, Any]) -> Any:
    raise InvocationUnavailableError(f"{endpoint} is down")


async def _answer(endpoint: str, arguments: dict[str, Any]) -> Any:
    return shapes.answer(arguments["formula"])


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
                    parameters=PARAMETERS,
                    output_fields=[FieldSpec(**field) for field in shapes.chain_fields(wire)],
                )
            ],
        )
        router.add_bound_tool(spec, _down if tool in shapes.DOWN else _answer)
    return router


def invoke(repeats: int, warmup: int) -> dict[str, Any]:
    """The 4-route chain from a request (``ainvoke``) and from a compiled plan (``execute``),
    and one healthy route."""
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
    route = _route(router, chain)
    if len(route) != 4:
        raise RuntimeError(f"expected a 4-route chain, got {route}")

    def reset() -> None:
        for tool in shapes.DOWN:
            router.mark_access_available(tool, "search")

    def check(results: Any) -> None:
        if results[0].tool != shapes.ANSWERS:
            raise RuntimeError(f"expected {shapes.ANSWERS}, got {results[0].tool}")

    async def measure() -> dict[str, Any]:
        cases = {"request": lambda: router.ainvoke(chain), "compiled plan": lambda: router.execute(compiled)}
        cases["single route"] = lambda: router.ainvoke(single)
        out: dict[str, Any] = {}
        for name, run in cases.items():
            await protocol.atimed(run, warmup, before=reset, check=check)
            out[name] = await protocol.atimed(run, repeats, before=reset, check=check)
        reset()
        results = await router.ainvoke(chain)
        out["answer"] = {"route": route, "records": results[0].data}
        return out

    return asyncio.run(measure())


def about() -> dict[str, str]:
    return {"version": version("schemarouter"), "python": sys.version.split()[0]}


if __name__ == "__main__":
    protocol.serve({"plan": plan, "register": register, "memory": memory, "invoke": invoke, "about": about})
