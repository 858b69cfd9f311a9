"""Memory per callable route against a ``StructuredTool`` per function.

Each side runs in its own fresh interpreter (``python -m benchmarks.memory_bench --side S
--count N``): it first makes N distinct plain functions (the application's, so not counted),
then measures the resident set growth (``/proc/self/statm``, after ``gc.collect()``) while
it turns every function into a route (``router.add_callable``) or a
``StructuredTool.from_function``. The two processes run one after the other in the same
``make bench`` run. Target: <= 13 KB per callable route at 100,000 routes.

Our side makes 100,000 routes (``SCHEMAROUTER_BENCH_ROUTES``; about a minute). The
``StructuredTool`` side makes 10,000 (``SCHEMAROUTER_BENCH_PEER_ROUTES``): each one builds
a pydantic model of its own (about 3 ms a tool), so 100,000 would take five minutes of the
bench, and its cost per tool does not depend on how many there are (each tool is
independent: 13.1 KB at 10,000, 13.2 KB at 100,000).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
COUNT = int(os.environ.get("SCHEMAROUTER_BENCH_ROUTES", "100000"))
PEER_COUNT = int(os.environ.get("SCHEMAROUTER_BENCH_PEER_ROUTES", "10000"))
TARGET_KB = 13.0
PAGE = os.sysconf("SC_PAGE_SIZE")


def _rss() -> int:
    gc.collect()
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * PAGE


def _functions(count: int) -> list[Callable[..., Any]]:
    """*count* distinct functions of one signature (as a generated landscape has them)."""
    return [_function(i) for i in range(count)]


def _function(i: int) -> Callable[..., Any]:
    def band_gap(formula: str = "Si") -> list[dict[str, Any]]:
        """Band gap of a formula."""
        return [{"formula": formula, "band_gap": 0.1 * i}]

    band_gap.__name__ = band_gap.__qualname__ = f"band_gap_{i:06d}"
    return band_gap


def _side(side: str, count: int) -> dict[str, float]:
    sys.path.insert(0, str(ROOT))
    if side == "ours":
        from schemarouter_integrations import SchemaRouter

        router = SchemaRouter()
    else:
        from langchain_core.tools import StructuredTool
    functions = _functions(count)
    kept: list[Any] = []
    before = _rss()
    started = time.perf_counter()
    for index, function in enumerate(functions):
        if side == "ours":
            router.add_callable(function, name=f"tool_{index:06d}", provider=f"p{index // 5}", read_only=True)
        else:
            kept.append(StructuredTool.from_function(func=function, name=f"tool_{index:06d}"))
    seconds = time.perf_counter() - started
    grown = _rss() - before
    return {"kb_per_route": grown / count / 1024, "seconds": seconds}


def _run(side: str, count: int) -> dict[str, float]:
    command = [sys.executable, "-m", "benchmarks.memory_bench", "--side", side, "--count", str(count)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    measured: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return measured


def main() -> dict[str, float]:
    ours = _run("ours", COUNT)
    try:
        peer = _run("structured_tool", PEER_COUNT)
    except subprocess.CalledProcessError as exc:  # no langchain-core: only our side
        print(f"StructuredTool side skipped: {exc.stderr.strip().splitlines()[-1:]}")
        peer = None
    print(f"{COUNT:,} callable routes: {ours['kb_per_route']:.2f} KB each ({ours['seconds']:.1f} s to add)")
    results = {
        "memory.routes": float(COUNT),
        "memory.ours_kb_per_route": round(ours["kb_per_route"], 2),
    }
    if peer is not None:
        kb, seconds = peer["kb_per_route"], peer["seconds"]
        print(f"{PEER_COUNT:,} StructuredTools: {kb:.2f} KB each ({seconds:.1f} s to build)")
        results["memory.structured_tool_kb_per_route"] = round(peer["kb_per_route"], 2)
        results["memory.structured_tool_routes"] = float(PEER_COUNT)
    return results


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--side")
    parser.add_argument("--count", type=int, default=COUNT)
    parsed = parser.parse_args()
    if parsed.side:
        print(json.dumps(_side(parsed.side, parsed.count)))
    else:
        main()
