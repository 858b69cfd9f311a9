"""100 questions during an outage: SchemaRouter against LangChain's ``Runnable.with_fallbacks``.

The primary access path is down the way a real outage looks from a client: every call waits
for its timeout (``FAILED_WAIT`` seconds, simulated with a sleep) and fails; the fallback
answers at once. Both sides run the same questions one after another, in-process.

* ``with_fallbacks`` has no memory: every question pays the primary's failed wait again.
* The router cools the failed path down after the first failure; the next 99 questions go
  straight to the fallback until the cooldown ends or a probe reopens the path.

What the router gives up for it: while a path cools down it is not tried even if it has
just recovered (a health probe reopens it early; see docs/concepts/health.md).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from schemarouter_integrations import InvocationUnavailableError, PlanRequest, SchemaRouter

QUESTIONS = 100
FAILED_WAIT = 0.05
REQUEST = PlanRequest(
    query="band gap", arguments={"formula": "Si"}, preferred_tools=["mp_api"], fallback_scope="same_provider"
)


class Counter:
    def __init__(self, failed_wait: float) -> None:
        self.failed_wait = failed_wait
        self.primary_calls = 0

    async def primary(self, formula: str) -> list[dict[str, Any]]:
        self.primary_calls += 1
        await anyio.sleep(self.failed_wait)
        raise InvocationUnavailableError("read timeout")

    async def fallback(self, formula: str) -> list[dict[str, Any]]:
        return [{"formula": formula, "band_gap": 0.61}]


async def run_router(questions: int, failed_wait: float) -> tuple[list[float], int]:
    counter = Counter(failed_wait)
    router = SchemaRouter()
    common: dict[str, Any] = {"endpoint": "search", "read_only": True, "fields": ["band_gap", "formula"]}
    router.add_callable(counter.primary, name="mp_api", provider="materials_project", **common)
    router.add_callable(counter.fallback, name="mp_python", provider="materials_project", **common)
    latencies = []
    for _ in range(questions):
        started = time.perf_counter()
        result = await router.invoke(REQUEST)
        latencies.append(time.perf_counter() - started)
        assert result.records[0]["band_gap"] == 0.61
    return latencies, counter.primary_calls


async def run_with_fallbacks(questions: int, failed_wait: float) -> tuple[list[float], int]:
    from langchain_core.runnables import RunnableLambda

    counter = Counter(failed_wait)

    async def primary(formula: str) -> list[dict[str, Any]]:
        try:
            return await counter.primary(formula)
        except InvocationUnavailableError:
            raise TimeoutError("read timeout") from None

    chain = RunnableLambda(primary).with_fallbacks([RunnableLambda(counter.fallback)])
    latencies = []
    for _ in range(questions):
        started = time.perf_counter()
        records = await chain.ainvoke("Si")
        latencies.append(time.perf_counter() - started)
        assert records[0]["band_gap"] == 0.61
    return latencies, counter.primary_calls


def summary(latencies: list[float], primary_calls: int) -> dict[str, float]:
    ordered = sorted(latencies)
    return {
        "total_s": round(sum(latencies), 3),
        "median_ms": round(statistics.median(ordered) * 1000, 3),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 3),
        "failed_waits": primary_calls,
    }


def main(questions: int = QUESTIONS, failed_wait: float = FAILED_WAIT) -> dict[str, Any]:
    router = summary(*anyio.run(run_router, questions, failed_wait))
    langchain = summary(*anyio.run(run_with_fallbacks, questions, failed_wait))
    print(f"{questions} questions, primary down (each failed call waits {failed_wait * 1000:.0f} ms)")
    print(f"{'':<22}{'total s':>9}{'median ms':>11}{'p95 ms':>9}{'failed waits':>14}")
    for name, row in (("SchemaRouter", router), ("with_fallbacks", langchain)):
        print(
            f"{name:<22}{row['total_s']:>9}{row['median_ms']:>11}{row['p95_ms']:>9}{row['failed_waits']:>14}"
        )
    return {"with_fallbacks_outage": {"questions": questions, "router": router, "with_fallbacks": langchain}}


if __name__ == "__main__":
    main()
