"""invoke() latency of the seed's 4-route chain: three unavailable paths, then a success.

All invokers are in-process (no network): mp_api, mp_optimade and mp_python raise
InvocationUnavailableError, oqmd_api answers. Each repeat pays 4 calls, 3 cooldown marks,
3 fallbacks, output projection and 17 typed events. Cooldowns are cleared between repeats,
outside the timed part, so every repeat walks the whole chain.

"request" includes plan_executable(); "compiled plan" runs one Plan compiled up front, so
planning is excluded. Both reuse the preflight of the first run (the executor remembers the
preflight of a chain of compiled calls it runs again, until the registry changes). "single
route" is the happy path (one healthy call) for reference.
"typed floor" (:mod:`benchmarks.typed_floor`) is the least a run can do and still build the
same typed objects; it runs interleaved with "compiled plan", repeat by repeat, and
``invoke_floor_ratio`` = ours / floor (medians). "request, 996 unrelated tools" is the
PlanRequest chain in a registry that also holds 996 tools serving no band gap: plans there
must not pay for rejection reasons nobody reads. "output schema" is the compiled-plan chain
with an output schema on every endpoint (the answering route's response is checked).
Targets on the reference machine: median < 1 ms for the 4-route chain; ours <= 5x the floor.
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

from benchmarks.typed_floor import Marks, floor_run
from schemarouter_integrations import (
    EndpointSpec,
    FieldSpec,
    InvocationUnavailableError,
    Plan,
    PlanRequest,
    SchemaRouter,
    ToolCall,
    ToolSpec,
)

CHAIN = PlanRequest(
    query="Si band gap",
    arguments={"formula": "Si"},
    preferred_tools=("mp_api",),
    fallback_scope="cross_provider",
    max_fallbacks=3,
)
SINGLE = PlanRequest(query="Si band gap", arguments={"formula": "Si"}, preferred_tools=("oqmd_api",))
DOWN = ("mp_api", "mp_optimade", "mp_python")
ROUTES = {  # tool -> (provider, access_mode, wire name of band_gap)
    "mp_api": ("materials_project", "openapi", "band_gap"),
    "mp_optimade": ("materials_project", "optimade", "_mp_band_gap"),
    "mp_python": ("materials_project", "python", "band_gap"),
    "oqmd_api": ("oqmd", "openapi", "band_gap"),
}
INPUT = {"type": "object", "properties": {"formula": {"type": "string"}}, "additionalProperties": False}
UNRELATED = 996
REPEATS = 2000
WARMUP = 200
TARGET_MS = 1.0
FLOOR_TARGET = 5.0


async def _down(call: ToolCall) -> Any:
    raise InvocationUnavailableError(f"{call.tool} is down")


async def _oqmd(call: ToolCall) -> Any:
    return {"data": [{"entry_id": 4200, "name": "Si", "band_gap": 0.62, "delta_e": -0.1}]}


def _output_schema(wire: str) -> dict[str, Any]:
    record = {"type": "object", "properties": {"name": {"type": "string"}, wire: {"type": "number"}}}
    return {
        "type": "object",
        "required": ["data"],
        "properties": {"data": {"type": "array", "items": record}},
    }


def build_router(unrelated: int = 0, *, output_schema: bool = False) -> SchemaRouter:
    router = SchemaRouter()
    for i in range(unrelated):  # tools that serve no band gap (another provider's inventory)
        other = EndpointSpec(
            name="list",
            read_only=True,
            input_schema=INPUT,
            fields=[FieldSpec(name=f"stock_{i}"), FieldSpec(name="formula")],
        )
        router.register(ToolSpec(name=f"unrelated_{i:04d}", provider="warehouse", endpoints=[other]), _oqmd)
    for tool, (provider, mode, wire) in ROUTES.items():
        spec = ToolSpec(
            name=tool,
            provider=provider,
            access_mode=mode,
            endpoints=[
                EndpointSpec(
                    name="search",
                    read_only=True,
                    input_schema=INPUT,
                    records_path=["data"],
                    output_schema=_output_schema(wire) if output_schema else None,
                    fields=[
                        FieldSpec(name="band_gap", path=[wire], aliases=["gap"]),
                        FieldSpec(name="formula", path=["name"], aliases=["chemical formula"]),
                    ],
                )
            ],
        )
        router.register(spec, _down if tool in DOWN else _oqmd)
    return router


def _reset(router: SchemaRouter) -> None:
    for tool in DOWN:
        router.mark_access_available(tool, "search")


Samples = tuple[list[float], list[float]]  # wall seconds, CPU seconds


async def _samples(router: SchemaRouter, run: Callable[[], Awaitable[Any]], *, expect: str) -> Samples:
    for _ in range(WARMUP):
        _reset(router)
        await run()
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(REPEATS):
        _reset(router)  # cooldowns are not carried between repeats (not timed)
        start, start_cpu = time.perf_counter(), time.process_time()
        result = await run()
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start)
        if result.tool != expect:
            raise RuntimeError(f"expected {expect}, got {result.tool}")
    return wall, cpu


async def _side_by_side(router: SchemaRouter, plan: Plan) -> tuple[Samples, Samples]:
    """Ours on the compiled plan and the typed floor, alternating repeat by repeat."""
    invokers = {tool: _down if tool in DOWN else _oqmd for tool in ROUTES}
    wire = {tool: {"band_gap": name, "formula": "name"} for tool, (_, _, name) in ROUTES.items()}
    marks: Marks = {}
    ours: Samples = ([], [])
    floor: Samples = ([], [])
    for repeat in range(WARMUP + REPEATS):
        for samples, run in (
            (ours, lambda: router.invoke(plan)),
            (floor, lambda: floor_run(plan, invokers, marks, wire)),
        ):
            _reset(router)
            marks.clear()
            start, start_cpu = time.perf_counter(), time.process_time()
            result = await run()
            cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start
            if result.tool != "oqmd_api" or len(result.events) != 16:
                raise RuntimeError(f"unexpected run: {result.tool}, {len(result.events)} events")
            if repeat >= WARMUP:
                samples[0].append(wall)
                samples[1].append(cpu)
    return ours, floor


async def _measure() -> dict[str, Samples]:
    router = build_router()
    plan: Plan = router.plan_executable(CHAIN)
    if len(plan.calls) != 4:
        raise RuntimeError(plan.explain())
    crowded = build_router(UNRELATED)
    if len(crowded.plan_executable(CHAIN).calls) != 4:
        raise RuntimeError("the crowded registry must plan the same chain")
    checked = build_router(output_schema=True)
    checked_plan = checked.plan_executable(CHAIN)
    ours, floor = await _side_by_side(router, plan)
    return {
        "request": await _samples(router, lambda: router.invoke(CHAIN), expect="oqmd_api"),
        "compiled plan": ours,
        "typed floor": floor,
        "output schema": await _samples(checked, lambda: checked.invoke(checked_plan), expect="oqmd_api"),
        "request unrelated": await _samples(crowded, lambda: crowded.invoke(CHAIN), expect="oqmd_api"),
        "single route": await _samples(router, lambda: router.invoke(SINGLE), expect="oqmd_api"),
    }


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 4)


def main() -> dict[str, float]:
    """Print a small table and return medians and p90s in milliseconds."""
    measured = anyio.run(_measure)
    results: dict[str, float] = {}
    print(f"invoke() latency, {REPEATS} repeats after {WARMUP} warm-up runs (in-process invokers)")
    print(f"{'scenario':<30}  {'median':>10}  {'p90':>10}  {'CPU median':>10}  target")
    labels = {
        "request": "4-route chain, PlanRequest",
        "compiled plan": "4-route chain, compiled Plan",
        "typed floor": "typed floor, compiled Plan",
        "output schema": "compiled Plan, output schema",
        "request unrelated": f"4-route chain, +{UNRELATED} unrelated",
        "single route": "1 healthy route, PlanRequest",
    }
    for key, (wall, cpu) in measured.items():
        median, p90 = statistics.median(wall), statistics.quantiles(wall, n=10)[-1]
        cpu_median = statistics.median(cpu)
        slug = key.replace(" ", "_")
        results[f"invoke_{slug}_median_ms"] = _ms(median)
        results[f"invoke_{slug}_p90_ms"] = _ms(p90)
        results[f"invoke_{slug}_cpu_median_ms"] = _ms(cpu_median)
        if key in ("single route", "typed floor"):
            target = "-"
        else:
            target = f"< {TARGET_MS} ms " + ("ok" if median * 1000 < TARGET_MS else "MISSED")
        times = f"{_ms(median):>7.4f} ms  {_ms(p90):>7.4f} ms  {_ms(cpu_median):>7.4f} ms"
        print(f"{labels[key]:<30}  {times}  {target}")
    ratio = results["invoke_compiled_plan_median_ms"] / results["invoke_typed_floor_median_ms"]
    crowded = results["invoke_request_unrelated_median_ms"] / results["invoke_request_median_ms"]
    results["invoke_floor_ratio"] = round(ratio, 2)
    results["invoke_unrelated_ratio"] = round(crowded, 2)
    verdict = "ok" if ratio <= FLOOR_TARGET else "MISSED"
    print(
        f"ours / typed floor (compiled Plan, interleaved): {ratio:.2f}x  target <= {FLOOR_TARGET}x {verdict}"
    )
    print(f"PlanRequest chain with {UNRELATED} unrelated tools / with none: {crowded:.2f}x")
    return results


if __name__ == "__main__":
    main()
