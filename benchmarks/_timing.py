"""Small timing helpers shared by the benchmarks (medians of many repeats)."""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Awaitable, Callable

import anyio


def median_seconds(fn: Callable[[], object], *, repeats: int, warmup: int = 20) -> float:
    """Median wall time of one call of *fn* over *repeats* calls, after *warmup* calls."""
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def fmt_ms(seconds: float) -> str:
    return f"{seconds * 1000:.4f} ms"


async def sampled_call_tree(once: Callable[[], Awaitable[object]], runs: int, *, interval: float) -> str:
    """A pyinstrument call tree (plain text) of *runs* awaits of *once* (the dev group)."""
    from pyinstrument import Profiler

    profiler = Profiler(interval=interval)
    profiler.start()
    for _ in range(runs):
        await once()
    profiler.stop()
    text: str = profiler.output_text(unicode=False, color=False)
    return text


def print_profile(profile: Callable[[int], Awaitable[str]], default_runs: int = 3000) -> dict[str, float]:
    """Run *profile* for ``argv[1]`` runs (or *default_runs*) and print its call tree."""
    runs = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else default_runs
    try:
        print(anyio.run(profile, runs))
    except ImportError:
        print("pyinstrument is not installed: pip install pyinstrument")
    return {}
