"""What the LangChain face costs: ``SchemaRouterTool.ainvoke`` against a bare ``StructuredTool``.

Both tools run the same in-process routed call (one healthy Python route, no network, no
callbacks): the bare ``StructuredTool``'s coroutine calls ``router.invoke`` and formats the
records as the model would read them; ``SchemaRouterTool`` adds its argument surface, event
mirroring, tracing hooks and its ``(content, artifact)`` output. Both are timed in the same
run (medians of alternating repeats). Target: ratio <= 1.3.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from langchain_core.tools import StructuredTool

from schemarouter_integrations import PlanRequest, SchemaRouter
from schemarouter_integrations._framework import result_content
from schemarouter_integrations.langchain import SchemaRouterTool

REPEATS = 2000
WARMUP = 200
TARGET_RATIO = 1.3
CALL = {
    "type": "tool_call",
    "id": "call-1",
    "name": "materials",
    "args": {"query": "band gap of Si", "formula": "Si"},
}


def band_gaps(formula: str = "Si") -> list[dict[str, Any]]:
    """Band gaps of a formula (in-process, instant)."""
    return [{"material_id": "mp-149", "formula": formula, "band_gap": 0.61}]


def build() -> tuple[StructuredTool, SchemaRouterTool]:
    router = SchemaRouter()
    router.add_callable(band_gaps, name="mp_python", provider="materials_project", read_only=True)

    async def bare(query: str, formula: str | None = None) -> str:
        request = PlanRequest(query=query, arguments={"formula": formula} if formula else {})
        return result_content(await router.invoke(request))

    baseline = StructuredTool.from_function(coroutine=bare, name="materials", description="Band gaps.")
    return baseline, SchemaRouterTool(router=router, name="materials")


async def _measure() -> tuple[list[float], list[float]]:
    baseline, tool = build()
    for _ in range(WARMUP):
        await baseline.ainvoke(CALL)
        await tool.ainvoke(CALL)
    bare: list[float] = []
    routed: list[float] = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        await baseline.ainvoke(CALL)
        bare.append(time.perf_counter() - start)
        start = time.perf_counter()
        message = await tool.ainvoke(CALL)
        routed.append(time.perf_counter() - start)
        if message.status != "success":  # pragma: no cover - a broken setup
            raise RuntimeError(message.content)
    return bare, routed


def main() -> dict[str, float]:
    bare, routed = anyio.run(_measure)
    bare_ms, routed_ms = statistics.median(bare) * 1000, statistics.median(routed) * 1000
    ratio = routed_ms / bare_ms
    verdict = "ok" if ratio <= TARGET_RATIO else "MISSED"
    print(f"LangChain tool overhead, {REPEATS} alternating repeats after {WARMUP} warm-up calls")
    print(f"bare StructuredTool.ainvoke    median {bare_ms:.4f} ms")
    print(f"SchemaRouterTool.ainvoke       median {routed_ms:.4f} ms")
    print(f"ratio {ratio:.3f} (target <= {TARGET_RATIO}: {verdict})")
    return {
        "tool_overhead_bare_median_ms": round(bare_ms, 4),
        "tool_overhead_schemarouter_median_ms": round(routed_ms, 4),
        "tool_overhead_ratio": round(ratio, 3),
    }


if __name__ == "__main__":
    main()
