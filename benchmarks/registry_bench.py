"""Registration at scale: registering N tools (one endpoint, three fields each) and the first
plan after it, for N = 1,000, 10,000 and 100,000.

Targets: 10,000 tools in under 2 s and 100,000 in under 20 s. Building the
ToolSpecs is timed apart from registering them (the application pays for its contracts).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._timing import fmt_ms, median_seconds
from schemarouter_integrations import EndpointSpec, FieldSpec, PlanRequest, SchemaRouter, ToolSpec

SCHEMA = {"type": "object", "properties": {"formula": {"type": "string"}}, "additionalProperties": False}
SIZES = (1_000, 10_000, 100_000)
TARGETS_S = {10_000: 2.0, 100_000: 20.0}
GAP = PlanRequest(query="band gap", fallback_scope="cross_provider")


def specs(count: int, *, compatible: int | None = None) -> list[ToolSpec]:
    """*count* tools; with *compatible*, only that many serve a band gap (the rest serve
    their own ``energy_<i>``), as in a large landscape where few routes fit a question."""
    return [_spec(i, serves_gap=compatible is None or i < compatible) for i in range(count)]


def _spec(i: int, *, serves_gap: bool) -> ToolSpec:
    first = FieldSpec(name="band_gap", aliases=["gap"], path=[f"_p{i // 5}_band_gap"]) if serves_gap else None
    return ToolSpec(
        name=f"tool_{i:06d}",
        provider=f"provider_{i // 5}",
        endpoints=[
            EndpointSpec(
                name="search",
                read_only=True,
                input_schema=SCHEMA,
                fields=[
                    *([first] if first else []),
                    FieldSpec(name="formula"),
                    FieldSpec(name=f"energy_{i}"),
                ],
            )
        ],
    )


def main() -> dict[str, float]:
    results: dict[str, float] = {}
    print(f"{'tools':>8}  {'build specs':>12}  {'register':>10}  {'per tool':>9}  {'first plan':>11}  target")
    for size in SIZES:
        started = time.perf_counter()
        contracts = specs(size)
        built = time.perf_counter() - started
        router = SchemaRouter()
        started = time.perf_counter()
        for spec in contracts:
            router.register(spec)
        registered = time.perf_counter() - started
        started = time.perf_counter()
        router.plan(PlanRequest(query="band gap", fallback_scope="cross_provider"))
        first_plan = time.perf_counter() - started
        target = TARGETS_S.get(size)
        verdict = "" if target is None else ("ok" if registered < target else "MISSED") + f" (< {target:g} s)"
        print(
            f"{size:>8}  {built:>10.2f} s  {registered:>8.2f} s  {registered / size * 1e6:>6.0f} us"
            f"  {first_plan * 1000:>8.1f} ms  {verdict}"
        )
        results[f"register_seconds_{size}"] = registered
        results[f"first_plan_ms_{size}"] = first_plan * 1000
    print("\ncold plan with 10 compatible tools among N (caches dropped before each plan; target < 1 ms)")
    for size in SIZES:
        router = SchemaRouter()
        for spec in specs(size, compatible=10):
            router.register(spec)
        router.plan(GAP)

        def cold(r: SchemaRouter = router) -> None:
            r.registry.drop_derived()
            r.plan(GAP)

        median = median_seconds(cold, repeats=30, warmup=3)
        warm = median_seconds(lambda r=router: r.plan(GAP), repeats=300)
        print(f"{size:>8}  cold {fmt_ms(median):>10}  warm {fmt_ms(warm):>10}")
        results[f"cold_plan_10_compatible_ms_{size}"] = median * 1000
        results[f"warm_plan_10_compatible_ms_{size}"] = warm * 1000
    return results


if __name__ == "__main__":
    main()
