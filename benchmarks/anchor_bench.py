"""Side by side against the anchor, PyPI ``schemarouter`` 0.17.0, in one run.

Two workers answer the same requests: ours in our virtual environment, the anchor in its own
(``benchmarks/.anchor-venv``, created by ``make bench`` when missing). Neither imports the
other's package. The scenarios come from ``benchmarks/anchor/shapes.py`` on both sides:

- ``plan()`` warm (the same request again) and cold (the first plan after one tool was
  re-registered, untimed) for 10, 100 and 1,000 tools, 10,000 too with ``--all-sizes`` (5
  fields, 5 tools a provider, "Si band gap", cross_provider, 3 fallbacks);
- invoke of the 4-route chain (3 unavailable in-process routes, then a success) from a request
  and from a compiled plan, and one healthy route for reference;
- registering 1,000 tools (every round) and 10,000 (once; building the contracts timed apart);
- tracemalloc bytes kept by a 1,000-tool registry after its first plan (fresh workers).

The sides alternate within every round (and which goes first alternates between rounds);
each figure is the median over all rounds' samples, and each ratio is anchor / ours. When the
anchor cannot be installed its rows are skipped with the reason, never estimated.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.anchor import shapes
from benchmarks.anchor.environment import AnchorUnavailable, anchor_python
from benchmarks.anchor.worker import Worker, WorkerError

Starter = Callable[[str], Worker]
ROUNDS = 3
# The plan sizes measured in `make bench`. 10,000 tools (shapes.PLAN_SIZES) are left out there:
# the anchor's one warm and one cold plan at that size took 141 s of a 15-minute budget (its
# registry is built and planned once first), and its growth is already plain from 10 to 1,000
# (the plot); our own plans at 10,000 and 100,000 tools are in registry_bench.
# `python benchmarks/anchor_bench.py --all-sizes` measures 10,000 too (one round).
PLAN_SIZES = tuple(size for size in shapes.PLAN_SIZES if size <= 1_000)
# size -> (warm, cold) samples a round; the anchor takes fewer where one plan takes long
OURS_PLAN = {10: (300, 40), 100: (300, 40), 1_000: (200, 20), 10_000: (30, 3)}
ANCHOR_PLAN = {10: (40, 15), 100: (12, 5), 1_000: (3, 2), 10_000: (1, 1)}
SLOW_ROUND_S = 90.0  # a size whose anchor round takes longer is not repeated
INVOKE_REPEATS, INVOKE_WARMUP = 40, 10  # 120 samples a case and side over the 3 rounds
# size -> (rounds, repeats a round): 10,000 tools once (the anchor takes ~20 s a registration;
# one sample a side gives the ratio's order, the 1,000-tool row its median)
REGISTER_REPEATS = {1_000: (ROUNDS, 2), 10_000: (1, 1)}
CASES = ("request", "compiled plan", "single route")  # invoke: the same names on both workers


def _median(samples: list[float]) -> float:
    return statistics.median(samples)


def _ms(samples: list[list[float]]) -> tuple[float, float]:
    """Median wall and median CPU milliseconds of [wall, cpu] samples."""
    return _median([s[0] for s in samples]) * 1000, _median([s[1] for s in samples]) * 1000


def _ratio(anchor: float, ours: float) -> float:
    return round(anchor / ours, 1) if ours > 0 else float("nan")


def _pairs(round_: int, ours: Worker, anchor: Worker) -> list[Worker]:
    return [ours, anchor] if round_ % 2 == 0 else [anchor, ours]


def _plan(start: Starter, notes: list[str], sizes: tuple[int, ...] = PLAN_SIZES) -> dict[str, Any]:
    table: dict[str, Any] = {}
    for size in sizes:  # a pair of workers a size: no other registry shares their heaps
        samples: dict[str, dict[str, list[list[float]]]] = {}
        routes: dict[str, list[str]] = {}
        with start("ours") as ours, start("anchor") as anchor:
            for round_ in range(ROUNDS):
                took = 0.0
                for worker in _pairs(round_, ours, anchor):
                    warm, cold = (OURS_PLAN if worker is ours else ANCHOR_PLAN)[size]
                    started = time.perf_counter()
                    out = worker.ask("plan", timeout=600, size=size, warm=warm, cold=cold)
                    if worker is anchor:
                        took = time.perf_counter() - started
                    got = samples.setdefault(worker.name, {"warm": [], "cold": []})
                    got["warm"] += out["warm"]
                    got["cold"] += out["cold"]
                    routes[worker.name] = out["route"]
                if took > SLOW_ROUND_S and round_ < ROUNDS - 1:
                    note = f"the anchor's plans at {size:,} tools took {took:.0f} s a round"
                    notes.append(f"{note}: {round_ + 1} round(s) only")
                    break
        row: dict[str, Any] = {}
        for side in ("ours", "anchor"):
            for kind in ("warm", "cold"):
                row[f"{side}_{kind}_ms"], row[f"{side}_{kind}_cpu_ms"] = _ms(samples[side][kind])
            row[f"{side}_samples"] = [len(samples[side]["warm"]), len(samples[side]["cold"])]
        for kind in ("warm", "cold"):
            row[f"{kind}_ratio"] = _ratio(row[f"anchor_{kind}_ms"], row[f"ours_{kind}_ms"])
            row[f"{kind}_cpu_ratio"] = _ratio(row[f"anchor_{kind}_cpu_ms"], row[f"ours_{kind}_cpu_ms"])
        row["same_route"] = routes["ours"] == routes["anchor"]
        if not row["same_route"]:
            notes.append(f"{size:,} tools: ours plans {routes['ours']}, the anchor {routes['anchor']}")
        table[str(size)] = row
    return table


def _invoke(start: Starter, notes: list[str]) -> dict[str, Any]:
    samples: dict[tuple[str, str], list[list[float]]] = {}
    answers: dict[str, Any] = {}
    with start("ours") as ours, start("anchor") as anchor:
        for round_ in range(ROUNDS):
            for worker in _pairs(round_, ours, anchor):
                out = worker.ask("invoke", repeats=INVOKE_REPEATS, warmup=INVOKE_WARMUP)
                answers[worker.name] = out.pop("answer")
                for case, got in out.items():
                    samples.setdefault((worker.name, case), []).extend(got)
    table: dict[str, Any] = {}
    for case in CASES:
        (ours_ms, ours_cpu), (anchor_ms, anchor_cpu) = (
            _ms(samples[(side, case)]) for side in ("ours", "anchor")
        )
        table[case] = {"ours_ms": ours_ms, "anchor_ms": anchor_ms, "ratio": _ratio(anchor_ms, ours_ms)}
        table[case] |= {
            "ours_cpu_ms": ours_cpu,
            "anchor_cpu_ms": anchor_cpu,
            "cpu_ratio": _ratio(anchor_cpu, ours_cpu),
        }
    table["answers"] = answers
    if answers["ours"]["route"] != answers["anchor"]["route"]:
        routes = {side: answer["route"] for side, answer in answers.items()}
        notes.append(f"invoke routes differ: ours {routes['ours']}, anchor {routes['anchor']}")
    return table


def _register(start: Starter) -> dict[str, Any]:
    samples: dict[tuple[str, int], dict[str, list[float]]] = {}
    with start("ours") as ours, start("anchor") as anchor:
        for round_ in range(ROUNDS):
            for size, (rounds, repeats) in REGISTER_REPEATS.items():
                if round_ >= rounds:
                    continue
                for worker in _pairs(round_, ours, anchor):
                    for _ in range(repeats):
                        out = worker.ask("register", timeout=600, size=size)
                        got = samples.setdefault((worker.name, size), {})
                        for key, value in out.items():
                            got.setdefault(key, []).append(value)
    table: dict[str, Any] = {}
    for size in REGISTER_REPEATS:
        row: dict[str, Any] = {}
        for side in ("ours", "anchor"):
            for key, values in samples[(side, size)].items():
                row[f"{side}_{key}_s"] = _median(values)
        row["ratio"] = _ratio(row["anchor_register_s"], row["ours_register_s"])
        table[str(size)] = row
    return table


def _memory(start: Starter) -> dict[str, Any]:
    samples: dict[str, list[dict[str, int]]] = {"ours": [], "anchor": []}
    for round_ in range(ROUNDS):
        for side in ("ours", "anchor") if round_ % 2 == 0 else ("anchor", "ours"):
            with start(side) as worker:  # a fresh interpreter: nothing allocated earlier is shared
                samples[side].append(worker.ask("memory", size=shapes.MEMORY_SIZE))
    row: dict[str, Any] = {}
    for side, got in samples.items():
        for key in ("retained_bytes", "peak_bytes"):
            row[f"{side}_{key.replace('_bytes', '_mb')}"] = _median([g[key] for g in got]) / 1e6
    row["ratio"] = _ratio(row["anchor_retained_mb"], row["ours_retained_mb"])
    return {str(shapes.MEMORY_SIZE): row}


def compare(anchor_exe: Path, plan_sizes: tuple[int, ...] = PLAN_SIZES) -> dict[str, Any]:
    """Every scenario on both sides; the ``anchor`` entry of the results."""
    scripts = {"ours": (Path(sys.executable), "ours_side.py"), "anchor": (anchor_exe, "anchor_side.py")}

    def start(side: str) -> Worker:
        python, script = scripts[side]
        return Worker(side, python, script)

    notes: list[str] = []
    with start("ours") as ours, start("anchor") as anchor:
        results: dict[str, Any] = {"about": {"ours": ours.ask("about"), "anchor": anchor.ask("about")}}
    results["rounds"] = ROUNDS
    started = time.perf_counter()
    results["invoke"] = _invoke(start, notes)
    print(f"invoke: {time.perf_counter() - started:.0f} s")
    started = time.perf_counter()
    results["plan"] = _plan(start, notes, plan_sizes)
    print(f"plan: {time.perf_counter() - started:.0f} s")
    if max(plan_sizes) < max(shapes.PLAN_SIZES):
        left_out = f"plans at {max(shapes.PLAN_SIZES):,} tools are left out of `make bench`"
        why = "the anchor took 141 s for one warm and one cold plan there"
        notes.append(f"{left_out} ({why}): `python benchmarks/anchor_bench.py --all-sizes`")
    for name, simple in (("register", _register), ("memory", _memory)):
        started = time.perf_counter()
        results[name] = simple(start)
        print(f"{name}: {time.perf_counter() - started:.0f} s")
    results["notes"] = notes
    return results


def _print(results: dict[str, Any]) -> None:
    print(f"side by side with schemarouter {results['about']['anchor']['version']}, {ROUNDS} rounds, medians")
    head = ("ours warm", "anchor warm", "ratio", "ours cold", "anchor cold", "ratio")
    print(f"{'plan(), tools':<16}" + "".join(f"{h:>14}" for h in head))
    for size, row in results["plan"].items():
        cells = [f"{row['ours_warm_ms']:.4f} ms", f"{row['anchor_warm_ms']:.2f} ms", f"{row['warm_ratio']}x"]
        cells += [f"{row['ours_cold_ms']:.4f} ms", f"{row['anchor_cold_ms']:.2f} ms", f"{row['cold_ratio']}x"]
        print(f"{int(size):<16,}" + "".join(f"{c:>14}" for c in cells))
    for case, row in results["invoke"].items():
        if case != "answers":
            times = f"{row['ours_ms']:>9.4f} ms{row['anchor_ms']:>11.3f} ms{row['ratio']:>8}x"
            print(f"invoke {case:<22}{times}  (CPU {row['cpu_ratio']}x)")
    for size, row in results["register"].items():
        ours_s, anchor_s = row["ours_register_s"], row["anchor_register_s"]
        print(f"register {int(size):<20,}{ours_s:>10.3f} s{anchor_s:>12.3f} s{row['ratio']:>8}x")
    for size, row in results["memory"].items():
        ours_mb, anchor_mb = row["ours_retained_mb"], row["anchor_retained_mb"]
        print(f"memory, {int(size):,} tools{'':<13}{ours_mb:>9.1f} MB{anchor_mb:>10.1f} MB{row['ratio']:>8}x")
    for note in results["notes"]:
        print(f"note: {note}")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run the comparison; ``{"anchor": {...}}``, or ``{"anchor": {"skipped": reason}}``."""
    sizes = shapes.PLAN_SIZES if "--all-sizes" in (argv or []) else PLAN_SIZES
    try:
        anchor_exe = anchor_python()
        results = compare(anchor_exe, sizes)
    except (AnchorUnavailable, WorkerError) as exc:
        print(f"anchor comparison skipped: {exc}")
        return {"anchor": {"skipped": str(exc)}}
    _print(results)
    return {"anchor": results}


if __name__ == "__main__":
    main(sys.argv[1:])
