"""Run every benchmark side by side in one process run (``make bench``)."""

from __future__ import annotations

import importlib
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BENCHMARKS = [
    "benchmarks.plan_bench",
    "benchmarks.invoke_bench",
    "benchmarks.fleet_bench",
    "benchmarks.registration_bench",
    "benchmarks.import_bench",
    "benchmarks.one_route_bench",
    "benchmarks.memory_bench",
    "benchmarks.registry_bench",
    "benchmarks.tool_overhead_bench",
    "benchmarks.with_fallbacks_bench",
    "benchmarks.hedge_bench",
    "benchmarks.outage_timeline_bench",
    "benchmarks.federation_bench",
    "benchmarks.anchor_bench",
    "benchmarks.cache_bench",
]


def main(argv: list[str] | None = None) -> None:
    """Every benchmark; ``--only a,b`` runs those (``federation_bench,import_bench``) and merges
    their results into the last run's ``latest.json`` before writing the report."""
    args = sys.argv[1:] if argv is None else argv
    only = args[args.index("--only") + 1].split(",") if "--only" in args else None
    chosen = [n for n in BENCHMARKS if only is None or n.rsplit(".", 1)[-1] in only]
    out = ROOT / "benchmarks" / "results"
    results: dict[str, object] = {}
    if only is not None and (out / "latest.json").is_file():
        results.update(json.loads((out / "latest.json").read_text()))
        results.pop("bench.seconds", None)  # a partial run says nothing of the whole one's time
    started = time.perf_counter()
    for name in chosen:
        print(f"\n=== {name} ({time.perf_counter() - started:.0f} s in) ===", flush=True)
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            print(f"skipped: {exc}")
            continue
        outcome = module.main()
        if isinstance(outcome, dict):
            results.update(outcome)
    if only is None:
        results["bench.seconds"] = round(time.perf_counter() - started, 1)
    out.mkdir(exist_ok=True)
    (out / "latest.json").write_text(json.dumps(results, indent=2, sort_keys=True))
    print(f"\nresults written to {out / 'latest.json'}")
    from benchmarks.report import write_report

    print(f"report written to {write_report(results)}")


if __name__ == "__main__":
    main()
