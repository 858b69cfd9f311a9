"""plan() latency for registries of 10, 100, 1,000 and 10,000 tools, before and after the question reader.

Each tool has one read-only endpoint with 5 fields, all exposing band_gap; one provider per
5 tools. The request is "Si band gap" with cross_provider fallback and max_fallbacks=3.
Targets on the 2-core reference machine: median < 0.1 ms at 10 tools, < 2 ms at 1000.

"warm" is the steady state (the per-need candidate ranking and compiled calls are reused
while the registry is unchanged); "cold" clears those caches before every plan, which is
what the first request after a registration change pays.

The same rows are measured on the code before the question reader (:data:`PRE_READER`, the
commit ``benchmarks/EVAL-baseline.md`` was run on, taken with ``git archive`` into a temporary
directory) in a subprocess right after, and printed side by side: no row may be more than 10%
slower than before, the cold plan of 1,000 tools must stay under 2 ms, and the warm plan flat
from 10 to 10,000 tools (the 10,000-tool median within :data:`FLAT` times the 10-tool one).
``--tree PATH`` measures the package found at PATH; ``--json`` prints the results only.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parent.parent
if "--tree" in sys.argv:  # the package measured: the one at --tree PATH
    sys.path.insert(0, sys.argv[sys.argv.index("--tree") + 1])
sys.path.insert(1 if "--tree" in sys.argv else 0, str(ROOT))

from benchmarks._timing import median_seconds  # noqa: E402 (after the path of the package measured)

if TYPE_CHECKING:
    from schemarouter_integrations import SchemaRouter

PRE_READER = "2af3ba1"
"""The last commit of main before the question reader was merged (the eval baseline's code)."""
SIZES = (10, 100, 1000, 10000)
TARGETS_MS = {10: 0.1, 100: None, 1000: 2.0, 10000: None}
COLD_TARGET_MS = {1000: 2.0}
FLAT = 1.5
REGRESSION = 1.10


def _request() -> object:
    from schemarouter_integrations import PlanRequest

    return PlanRequest(
        query="Si band gap", arguments={"formula": "Si"}, fallback_scope="cross_provider", max_fallbacks=3
    )


def build_router(tools: int) -> SchemaRouter:
    from schemarouter_integrations import EndpointSpec, FieldSpec, SchemaRouter, ToolSpec

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
    router.plan(_request())  # build indexes once, as the first request after registration does
    return router


def measure() -> dict[str, float]:
    """Warm and cold plan medians (ms) at each of :data:`SIZES`."""
    request = _request()
    results: dict[str, float] = {}
    for size in SIZES:
        router = build_router(size)
        plan = router.plan(request)
        assert plan.primary is not None and len(plan.fallbacks) == 3
        repeats = 2000 if size <= 100 else 300
        median = median_seconds(lambda r=router: r.plan(request), repeats=repeats)

        def cold(r: SchemaRouter = router) -> None:
            r.registry.drop_derived()
            r.plan(request)

        cold_median = median_seconds(cold, repeats=max(repeats // 10, 30), warmup=3)
        results[f"plan_median_ms_{size}"] = median * 1000
        results[f"plan_cold_median_ms_{size}"] = cold_median * 1000
    return results


def before() -> dict[str, float] | str:
    """The same rows on :data:`PRE_READER`'s package, or why they could not be measured."""
    with tempfile.TemporaryDirectory(prefix="plan-bench-before-") as tmp:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", PRE_READER, "schemarouter_integrations"],
            capture_output=True,
            check=False,
        )
        if archive.returncode != 0:
            return f"git archive {PRE_READER} failed: {archive.stderr.decode(errors='replace').strip()[:200]}"
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        done = subprocess.run(
            [sys.executable, __file__, "--tree", tmp, "--json"], capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            return f"the run on {PRE_READER} failed: {(done.stderr or done.stdout).strip()[-200:]}"
        earlier: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
        return earlier


def _verdicts(now: dict[str, float], then: dict[str, float] | None) -> list[str]:
    lines = []
    for size, target in COLD_TARGET_MS.items():
        cold = now[f"plan_cold_median_ms_{size}"]
        verdict = "ok" if cold <= target else "MISSED"
        lines.append(f"cold plan of {size} tools {cold:.3f} ms: {verdict} (<= {target} ms)")
    flat = now[f"plan_median_ms_{SIZES[-1]}"] / now[f"plan_median_ms_{SIZES[0]}"]
    verdict = "ok" if flat <= FLAT else "MISSED"
    lines.append(f"warm plan {SIZES[-1]} / {SIZES[0]} tools = {flat:.2f}x: {verdict} (flat: <= {FLAT}x)")
    if then is not None:
        worse = [key for key in now if key in then and now[key] > then[key] * REGRESSION]
        lines.append(
            "no row more than 10% slower than before the reader: "
            + ("ok" if not worse else "MISSED (" + ", ".join(worse) + ")")
        )
    return lines


def main() -> dict[str, float]:
    results = measure()
    if "--json" in sys.argv:
        print(json.dumps(results))
        return results
    earlier = before()
    then = earlier if isinstance(earlier, dict) else None
    print("plan() median latency (cross_provider, max_fallbacks=3), ms")
    heads = ("warm before", "warm now", "cold before", "cold now")
    print(f"{'tools':>6}  " + "  ".join(f"{h:>12}" for h in heads) + "  target (warm)")
    for size in SIZES:
        warm, cold = results[f"plan_median_ms_{size}"], results[f"plan_cold_median_ms_{size}"]
        warm0 = then.get(f"plan_median_ms_{size}") if then else None
        cold0 = then.get(f"plan_cold_median_ms_{size}") if then else None
        target = TARGETS_MS[size]
        verdict = "" if target is None else ("ok" if warm < target else "MISSED") + f" (< {target} ms)"
        cells = [f"{v:.4f}" if v is not None else "-" for v in (warm0, warm, cold0, cold)]
        print(f"{size:>6}  " + "  ".join(f"{c:>12}" for c in cells) + f"  {verdict}")
        if warm0 is not None and cold0 is not None:
            results[f"plan_before_median_ms_{size}"] = warm0
            results[f"plan_before_cold_median_ms_{size}"] = cold0
    if then is None:
        print(f"before the reader: not measured ({earlier})")
    print("\n".join(_verdicts(results, then)))
    return results


if __name__ == "__main__":
    main()
