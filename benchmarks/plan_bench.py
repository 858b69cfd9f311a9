"""plan() latency for registries of 10, 100 and 1000 tools.

Each tool has one read-only endpoint with 5 fields, all exposing band_gap; one provider per
5 tools. The request is "Si band gap" with cross_provider fallback and max_fallbacks=3.
Targets on the 2-core reference machine: median < 0.1 ms at 10 tools, < 2 ms at 1000.

"warm" is the steady state (the per-need candidate ranking and compiled calls are reused
while the registry is unchanged); "cold" clears those caches before every plan, which is
what the first request after a registration change pays.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._timing import fmt_ms, median_seconds
from schemarouter_integrations import (
    EndpointSpec,
    FieldSpec,
    PlanRequest,
    SchemaRouter,
    ToolSpec,
)

REQUEST = PlanRequest(
    query="Si band gap", arguments={"formula": "Si"}, fallback_scope="cross_provider", max_fallbacks=3
)
TARGETS_MS = {10: 0.1, 100: None, 1000: 2.0}


def build_router(tools: int) -> SchemaRouter:
    router = SchemaRouter()
    schema = {"type": "object", "properties": {"formula": {"type": "string"}}, "additionalProperties": False}
    for i in range(tools):
        fields = [
            FieldSpec(name="band_gap", aliases=["gap"], path=[f"_p{i // 5}_band_gap"]),
            FieldSpec(name="formula", aliases=["chemical formula"]),
            FieldSpec(name=f"energy_{i}"),
            FieldSpec(name=f"volume_{i}"),
            FieldSpec(name=f"density_{i}"),
        ]
        router.register(
            ToolSpec(
                name=f"tool_{i:04d}",
                provider=f"provider_{i // 5}",
                access_mode="openapi",
                endpoints=[EndpointSpec(name="search", fields=fields, input_schema=schema, read_only=True)],
            )
        )
    router.plan(REQUEST)  # build indexes once, as the first request after registration does
    return router


def main() -> dict[str, float]:
    results: dict[str, float] = {}
    print("plan() median latency (cross_provider, max_fallbacks=3)")
    print(f"{'tools':>6}  {'warm median':>12}  {'cold median':>12}  target (warm)")
    for size in (10, 100, 1000):
        router = build_router(size)
        plan = router.plan(REQUEST)
        assert plan.primary is not None and len(plan.fallbacks) == 3
        repeats = 2000 if size <= 100 else 300
        median = median_seconds(lambda r=router: r.plan(REQUEST), repeats=repeats)

        def cold(r: SchemaRouter = router) -> None:
            r.registry.drop_derived()
            r.plan(REQUEST)

        cold_median = median_seconds(cold, repeats=max(repeats // 10, 30), warmup=3)
        target = TARGETS_MS[size]
        verdict = (
            "" if target is None else ("ok" if median * 1000 < target else "MISSED") + f" (< {target} ms)"
        )
        print(f"{size:>6}  {fmt_ms(median):>12}  {fmt_ms(cold_median):>12}  {verdict}")
        results[f"plan_median_ms_{size}"] = median * 1000
        results[f"plan_cold_median_ms_{size}"] = cold_median * 1000
    return results


if __name__ == "__main__":
    main()
