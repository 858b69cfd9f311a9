"""Run every benchmark side by side in one process run (``make bench``)."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BENCHMARKS = [
    "benchmarks.plan_bench",
    "benchmarks.invoke_bench",
    "benchmarks.fleet_bench",
    "benchmarks.registration_bench",
    "benchmarks.registry_bench",
    "benchmarks.tool_overhead_bench",
    "benchmarks.with_fallbacks_bench",
    "benchmarks.hedge_bench",
    "benchmarks.outage_timeline_bench",
    "benchmarks.federation_bench",
    "benchmarks.anchor_bench",
    "benchmarks.cache_bench",
]


def main() -> None:
    results: dict[str, object] = {}
    for name in BENCHMARKS:
        print(f"\n=== {name} ===")
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            print(f"skipped: {exc}")
            continue
        outcome = module.main()
        if isinstance(outcome, dict):
            results.update(outcome)
    out = ROOT / "benchmarks" / "results"
    out.mkdir(exist_ok=True)
    (out / "latest.json").write_text(json.dumps(results, indent=2, sort_keys=True))
    print(f"\nresults written to {out / 'latest.json'}")
    from benchmarks.report import write_report

    print(f"report written to {write_report(results)}")


if __name__ == "__main__":
    main()
