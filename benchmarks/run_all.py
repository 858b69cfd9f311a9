"""Run every benchmark side by side in one run (``make bench``).

Each benchmark runs in a fresh interpreter of its own (``run_all.py --child NAME``), so no
benchmark measures on a heap or an event loop another one left behind, and its wall time is
recorded as ``bench.<name>.seconds`` beside its budget (``BUDGET_S``): the whole run must stay
under 15 minutes on the 2-core reference machine, and the report shows which benchmark spends
what. ``bench.seconds`` is the whole run's wall time, ``bench.load`` the load average around it.

The benchmarks of ``WAIT_BOUND`` measure time spent waiting on timeouts and sleeps, not CPU
(each uses about a tenth of one core): they run in a second lane beside the others (``--lanes
2``, the default), one at a time, beside the single-process registration benchmark, while the
CPU lane runs one benchmark at a time. Every side-by-side pair still runs within one
benchmark, on the same conditions. ``--lanes 1`` runs everything one after the other.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BENCHMARKS = [  # the longest single-process one first: the wait lane runs beside it
    "benchmarks.registration_bench",
    "benchmarks.plan_bench",
    "benchmarks.invoke_bench",
    "benchmarks.fleet_bench",
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
    "benchmarks.mcp_http_bench",
    "benchmarks.http_invoke_bench",
    "benchmarks.stdio_handshake_bench",
    "benchmarks.peer_registration_bench",
]
# Seconds each benchmark may take on the quiet 2-core reference machine (a budget, not a
# measurement: the report prints the measured time beside it). Set from a whole run on the
# loaded machine (load 5-7; times there were about twice these), with room for the changes of
# issue 27 (memory_bench at 100,000 routes, registration_bench with a second YAML parser).
# Each lane's sum must stay under TOTAL_BUDGET_S (tests/unit/test_bench_report.py). Issue 42:
# plan_bench measures 10,000 tools and the code before the question reader too (25 s), paid
# for by registration_bench (180 -> 165 s: registering a document costs about a third less).
BUDGET_S = {
    "registration_bench": 165,
    "plan_bench": 25,
    "invoke_bench": 15,
    "fleet_bench": 50,
    "import_bench": 30,
    "one_route_bench": 30,
    "memory_bench": 150,
    "registry_bench": 90,
    "tool_overhead_bench": 15,
    "with_fallbacks_bench": 20,
    "hedge_bench": 30,
    "outage_timeline_bench": 70,
    "federation_bench": 30,
    "anchor_bench": 150,
    "cache_bench": 15,
    "mcp_http_bench": 40,
    "http_invoke_bench": 30,
    "stdio_handshake_bench": 30,
    "peer_registration_bench": 240,
}
TOTAL_BUDGET_S = 900
# CPU / wall seconds measured (`bench.<name>.cpu_seconds`, the processes each one waits for
# included): with_fallbacks 2/7, outage_timeline 6/61; their numbers are timeouts and waits
# of 50-500 ms. Not federation (13/21) nor cache (6/6), and not fleet: its 8 workers a fleet
# are forked by a forkserver (their CPU is not in its count) and it counts answers slower
# than 100 ms, which a busy core would add.
# stdio_handshake (CPU 12 / wall 23 s) waits on its subprocesses' start-ups about half the time,
# and its number is a ratio of alternating rounds (ours, bare SDK), both under the same load.
# peer_registration_bench is in the second lane too, though it computes: its verdict compares CPU
# seconds (ours against FastMCP.from_openapi's, over a minute on Stripe's document), which the
# other lane's work does not change, and the CPU lane has no room left for its minutes.
WAIT_BOUND = {
    "with_fallbacks_bench", "hedge_bench", "outage_timeline_bench", "stdio_handshake_bench",
    "peer_registration_bench",
}  # fmt: skip


def short(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def _child(name: str, out: Path) -> None:
    """Inside the benchmark's own interpreter: run it, write its results as JSON to *out*."""
    import importlib

    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        print(f"skipped: {exc}")
        out.write_text("{}")
        return
    outcome = module.main()
    out.write_text(json.dumps(outcome if isinstance(outcome, dict) else {}))


def _run_one(name: str, started: float) -> dict[str, Any]:
    """*name* in a fresh interpreter: its results, its wall and CPU seconds."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "results.json"
        begin = time.perf_counter()
        print(f"\n=== {name} ({begin - started:.0f} s in) ===", flush=True)
        child = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--child", name, str(out)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert child.stdout is not None
        for line in child.stdout:  # streamed, each line marked with its benchmark (two lanes)
            print(f"[{short(name)}] {line}", end="", flush=True)
        _, status, usage = os.wait4(child.pid, 0)  # its CPU, and that of the processes it waited for
        child.returncode = code = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - begin
        cpu = usage.ru_utime + usage.ru_stime
        print(f"=== {name} took {seconds:.0f} s ({cpu:.0f} s CPU) ===", flush=True)
        timing = {
            f"bench.{short(name)}.seconds": round(seconds, 1),
            f"bench.{short(name)}.cpu_seconds": round(cpu, 1),
        }
        if code != 0 or not out.is_file():
            return {f"bench.{short(name)}.failed": code, **timing}
        outcome: dict[str, Any] = json.loads(out.read_text())
        return {**outcome, **timing}


def _lane(names: list[str], started: float, results: dict[str, Any], lock: threading.Lock) -> None:
    for name in names:
        outcome = _run_one(name, started)
        with lock:
            results.update(outcome)


def budget_lines(results: dict[str, Any]) -> list[str]:
    """Each benchmark's measured seconds beside its budget (printed and in the report)."""
    lines = []
    for name in BENCHMARKS:
        seconds = results.get(f"bench.{short(name)}.seconds")
        if seconds is not None:
            over = " OVER BUDGET" if seconds > BUDGET_S[short(name)] else ""
            lane = "wait" if short(name) in WAIT_BOUND else "cpu"
            budget = BUDGET_S[short(name)]
            cpu = results.get(f"bench.{short(name)}.cpu_seconds", float("nan"))
            lines.append(
                f"{short(name):<24}{seconds:>7.1f} s {cpu:>7.1f} s CPU  budget {budget:>4} s  {lane}{over}"
            )
    return lines


def main(argv: list[str] | None = None) -> None:
    """Every benchmark; ``--only a,b`` runs those (``federation_bench,import_bench``) and merges
    their results into the last run's ``latest.json`` before writing the report."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--child"]:
        _child(args[1], Path(args[2]))
        return
    only = args[args.index("--only") + 1].split(",") if "--only" in args else None
    lanes = int(args[args.index("--lanes") + 1]) if "--lanes" in args else 2
    chosen = [n for n in BENCHMARKS if only is None or short(n) in only]
    out = ROOT / "benchmarks" / "results"
    results: dict[str, Any] = {}
    if only is not None and (out / "latest.json").is_file():
        results.update(json.loads((out / "latest.json").read_text()))
        for key in ("bench.seconds", "bench.load", "bench.lanes"):  # a partial run says nothing of these
            results.pop(key, None)
    started = time.perf_counter()
    load_before = os.getloadavg()[0]
    lock = threading.Lock()
    if lanes > 1:
        waiting = [n for n in chosen if short(n) in WAIT_BOUND]
        busy = [n for n in chosen if short(n) not in WAIT_BOUND]
        second = threading.Thread(target=_lane, args=(waiting, started, results, lock))
        second.start()
        _lane(busy, started, results, lock)
        second.join()
    else:
        _lane(chosen, started, results, lock)
    if only is None:
        results["bench.seconds"] = round(time.perf_counter() - started, 1)
        results["bench.load"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]
        results["bench.lanes"] = lanes
    print("\nseconds per benchmark (budget on the quiet 2-core machine):")
    print("\n".join(budget_lines(results)))
    if "bench.seconds" in results:
        print(f"total {results['bench.seconds']:.0f} s (budget {TOTAL_BUDGET_S} s)")
    out.mkdir(exist_ok=True)
    (out / "latest.json").write_text(json.dumps(results, indent=2, sort_keys=True))
    print(f"\nresults written to {out / 'latest.json'}")
    from benchmarks.report import write_report

    print(f"report written to {write_report(results)}")


if __name__ == "__main__":
    main()
