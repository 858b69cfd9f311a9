"""The answer cache against no cache (issue 26), measured side by side in one run.

1. **Repeated questions**: 1,000 questions drawn (seeded) from 50 distinct ones, 20 at a time,
   against an in-process route that answers in 5 ms (each router warmed up by one other
   question first, so neither side pays the first plan's cost; of 5 runs each, the one with
   the median total is reported). With ``CachePolicy(ttl_seconds=30)`` and
   a ``MemoryAnswerCache`` against the same router without a cache: upstream calls and the
   latency of each question (p50, p99).
2. **Outage timeline**: 10 questions a second for 30 s on the router's clock (a fake clock, so
   the run takes no 30 s); both routes of the chain are down from second 10 to second 20.
   ``CachePolicy(ttl_seconds=5, stale_if_error_seconds=600)`` against no cache: questions
   answered and failed, per second and in all.

Run: ``.venv/bin/python benchmarks/cache_bench.py`` (writes ``benchmarks/cache.png``).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from schemarouter_integrations import (
    CachePolicy,
    InvocationUnavailableError,
    MemoryAnswerCache,
    PlanRequest,
    SchemaRouter,
    SchemaRouterError,
)
from tests.support.fakes import FakeClock

QUESTIONS, DISTINCT, CONCURRENCY, LATENCY = 1000, 50, 20, 0.005
FIELDS = ["band_gap", "formula"]
OUT = Path(__file__).resolve().parent


class Route:
    def __init__(self, gap: float, latency: float = 0.0) -> None:
        self.gap, self.latency, self.calls, self.down = gap, latency, 0, False

    async def __call__(self, formula: str) -> list[dict[str, Any]]:
        self.calls += 1
        if self.latency:
            await anyio.sleep(self.latency)
        if self.down:
            raise InvocationUnavailableError("down")
        return [{"formula": formula, "band_gap": self.gap}]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def repeated(cached: bool) -> dict[str, float]:
    route = Route(1.1, LATENCY)
    router = SchemaRouter(answer_cache=MemoryAnswerCache() if cached else None)
    router.add_callable(route, name="mp", endpoint="search", read_only=True, fields=FIELDS)
    policy = CachePolicy(ttl_seconds=30) if cached else None
    rng = random.Random(26)
    formulas = [f"F{rng.randrange(DISTINCT)}" for _ in range(QUESTIONS)]
    latencies: list[float] = []
    limiter = anyio.Semaphore(CONCURRENCY)
    await router.invoke(PlanRequest(query="band gap", arguments={"formula": "warm-up"}))  # first plan
    route.calls = 0

    async def one(formula: str) -> None:
        async with limiter:
            started = time.perf_counter()
            await router.invoke(PlanRequest(query="band gap", arguments={"formula": formula}, cache=policy))
            latencies.append((time.perf_counter() - started) * 1000)

    started = time.perf_counter()
    async with anyio.create_task_group() as group:
        for formula in formulas:
            group.start_soon(one, formula)
    return {
        "upstream_calls": route.calls,
        "p50_ms": round(statistics.median(latencies), 3),
        "p99_ms": round(_percentile(latencies, 0.99), 3),
        "total_s": round(time.perf_counter() - started, 3),
    }


async def outage(cached: bool) -> dict[str, Any]:
    clock = FakeClock(0.0)
    mp, oqmd = Route(1.1), Route(0.6)
    router = SchemaRouter(clock=clock, answer_cache=MemoryAnswerCache() if cached else None)
    router.add_callable(mp, name="mp", endpoint="search", provider="mp", read_only=True, fields=FIELDS)
    router.add_callable(oqmd, name="oqmd", endpoint="search", provider="oqmd", read_only=True, fields=FIELDS)
    policy = CachePolicy(ttl_seconds=5, stale_if_error_seconds=600) if cached else None
    rng = random.Random(10)
    answered = [0] * 30
    failed = [0] * 30
    stale = 0
    for tick in range(300):
        second = tick // 10
        mp.down = oqmd.down = 10 <= second < 20
        request = PlanRequest(
            query="band gap",
            arguments={"formula": f"F{rng.randrange(DISTINCT)}"},
            fallback_scope="cross_provider",
            cache=policy,
        )
        try:
            result = await router.invoke(request)
            answered[second] += 1
            stale += result.stale
        except SchemaRouterError:
            failed[second] += 1
        clock.advance(0.1)
    return {
        "answered": sum(answered),
        "failed": sum(failed),
        "stale": stale,
        "per_second": [answered, failed],
    }


def _plot(results: dict[str, Any]) -> Path | None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover
        return None
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    names = ["no cache", "cache (TTL 30 s)"]
    rep = [results["cache_repeated_none"], results["cache_repeated_ttl30"]]
    xs = range(len(names))
    left.bar([x - 0.2 for x in xs], [r["p50_ms"] for r in rep], width=0.4, label="p50 ms")
    left.bar([x + 0.2 for x in xs], [r["p99_ms"] for r in rep], width=0.4, label="p99 ms")
    for x, r in zip(xs, rep, strict=True):
        left.text(x, max(r["p99_ms"], r["p50_ms"]) * 1.02, f"{r['upstream_calls']} calls", ha="center")
    left.set_xticks(list(xs), names)
    left.set_ylabel("latency per question (ms)")
    left.set_title("1,000 questions from 50 distinct ones")
    left.legend()
    seconds = list(range(30))
    for key, label in (
        ("cache_outage_none", "no cache"),
        ("cache_outage_stale600", "cache, stale-if-error 600 s"),
    ):
        right.plot(seconds, results[key]["per_second"][0], marker="o", label=f"answered, {label}")
    right.axvspan(10, 20, color="red", alpha=0.1, label="every route down")
    right.set_xlabel("second of the run (router clock)")
    right.set_ylabel("questions answered (of 10)")
    right.set_title("Outage timeline")
    right.legend(fontsize=8)
    fig.tight_layout()
    path = OUT / "cache.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def cache_section(results: dict[str, Any]) -> list[str]:
    """The RESULTS.md section for these results (empty when the benchmark did not run)."""
    none, ttl = results.get("cache_repeated_none"), results.get("cache_repeated_ttl30")
    down, stale = results.get("cache_outage_none"), results.get("cache_outage_stale600")
    if not (none and ttl and down and stale):
        return []
    return [
        "",
        "## Answer cache (`cache_bench`)",
        "",
        f"1,000 questions from 50 distinct ones, {CONCURRENCY} at a time, "
        f"route latency {LATENCY * 1000:g} ms:",
        "",
        "| | upstream calls | p50 (ms) | p99 (ms) | total (s) |",
        "|---|---|---|---|---|",
        f"| no cache | {none['upstream_calls']} | {none['p50_ms']} | {none['p99_ms']} | {none['total_s']} |",
        f"| `CachePolicy(ttl_seconds=30)` | {ttl['upstream_calls']} | {ttl['p50_ms']} | {ttl['p99_ms']} "
        f"| {ttl['total_s']} |",
        f"| ratio (cache / none) | {ttl['upstream_calls'] / none['upstream_calls']:.3f} "
        f"| {ttl['p50_ms'] / none['p50_ms']:.3f} | {ttl['p99_ms'] / none['p99_ms']:.3f} "
        f"| {ttl['total_s'] / none['total_s']:.3f} |",
        "",
        "Outage timeline: 300 questions over 30 s (router clock), every route down from 10 s to 20 s:",
        "",
        "| | answered | failed | of them stale |",
        "|---|---|---|---|",
        f"| no cache | {down['answered']} | {down['failed']} | 0 |",
        f"| `CachePolicy(ttl_seconds=5, stale_if_error_seconds=600)` | {stale['answered']} "
        f"| {stale['failed']} "
        f"| {stale['stale']} |",
        "",
        "![cache.png](cache.png)",
    ]


def _median_run(cached: bool, repeats: int = 5) -> dict[str, float]:
    """The run with the median total of *repeats* (the machine is shared: totals vary)."""
    runs = sorted((anyio.run(repeated, cached) for _ in range(repeats)), key=lambda r: r["total_s"])
    return runs[len(runs) // 2]


def main() -> dict[str, Any]:
    results: dict[str, Any] = {
        "cache_repeated_none": _median_run(False),
        "cache_repeated_ttl30": _median_run(True),
        "cache_outage_none": anyio.run(outage, False),
        "cache_outage_stale600": anyio.run(outage, True),
    }
    for key, value in results.items():
        shown = {k: v for k, v in value.items() if k != "per_second"}
        print(f"{key}: {shown}")
    _plot(results)
    return results


if __name__ == "__main__":
    out = main()
    print("\n".join(cache_section(out)))
