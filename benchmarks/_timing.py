"""Small timing helpers shared by the benchmarks (medians of many repeats)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


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
