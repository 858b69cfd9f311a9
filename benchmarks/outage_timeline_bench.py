"""Outage timeline: time to answer for each of 100 questions asked from the moment a primary goes down.

Primary and fallback are real loopback HTTP servers (``benchmarks/_loopback.py``) reached with
httpx and a 0.5 s client timeout. Each repeat starts healthy: a few warm-up questions are
answered by the primary (plans compiled, connections open), then the primary starts to hang
(it accepts and reads every request and never answers) and 100 questions follow one after
another. Variants, each with its own servers, client and router per repeat:

* ``ours``: ``SchemaRouter`` with ``fallback_scope="same_provider"``; the first question pays the
  timeout, then the primary cools down (default 30 s) and the rest go to the fallback.
* ``ours hedged``: the same with ``hedge=HedgePolicy(after_seconds=0.05)``: the fallback starts
  when the primary has not answered after 50 ms (run only when ``HedgePolicy`` is importable).
* ``with_fallbacks``: LangChain ``RunnableLambda(primary).with_fallbacks([RunnableLambda(fallback)])``
  over the same two httpx calls; it has no memory, so every question pays the timeout.

The ``with_fallbacks`` repeats run concurrently (one task each, own servers and client): each of
their questions is a 0.5 s wait, and running them one after another would cost 50 s per repeat.
Our variants run their repeats one after another. Per question index the figure is the median
across repeats. ``fallback_alone`` is the router answering from the fallback with no outage, the
fallback's latency in the hedging target (first question <= after_seconds + fallback + 10 ms).
Run: ``.venv/bin/python benchmarks/outage_timeline_bench.py``.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._loopback import LoopbackServer
from schemarouter_integrations import (
    EndpointSpec,
    FieldSpec,
    InvocationUnavailableError,
    PlanRequest,
    SchemaRouter,
    ToolSpec,
)

QUESTIONS = 100
REPEATS = 5
WITH_FALLBACKS_REPEATS = 3
CLIENT_TIMEOUT = 0.5
HEDGE_AFTER = 0.05
WARM_UP = 5
TARGET_SLACK = 0.010
SLOW_AFTER = HEDGE_AFTER + 0.05  # "slow answer", as in fleet_bench

Call = Callable[[dict[str, Any]], Awaitable[Any]]


def hedge_policy(after_seconds: float) -> Any | None:
    """``HedgePolicy(after_seconds)`` when the package has it, else None."""
    try:
        from schemarouter_integrations import HedgePolicy  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        return None
    return HedgePolicy(after_seconds=after_seconds)


def http_call(client: httpx.AsyncClient, url: str) -> Call:
    """One GET to *url*; an httpx error (the timeout) becomes InvocationUnavailableError."""

    async def call(arguments: dict[str, Any]) -> Any:
        try:
            response = await client.get(url, params=arguments)
            response.raise_for_status()
        except httpx.HTTPError as exc:
            raise InvocationUnavailableError(f"{type(exc).__name__} from {url}") from exc
        return response.json()

    return call


def _spec(name: str) -> ToolSpec:
    fields = [FieldSpec(name="band_gap", aliases=["band gap"]), FieldSpec(name="formula")]
    schema = {"type": "object", "properties": {"formula": {"type": "string"}}}
    endpoint = EndpointSpec(
        name="search", fields=fields, read_only=True, input_schema=schema, records_path=["data"]
    )
    return ToolSpec(name=name, provider="acme", access_mode="openapi", endpoints=[endpoint])


def build_router(primary: Call, fallback: Call) -> SchemaRouter:
    """A router with the primary and a same-provider fallback (default cooldown, one attempt)."""
    router = SchemaRouter()
    router.register(_spec("primary_api"), lambda call: primary(dict(call.arguments)))
    router.register(_spec("mirror_api"), lambda call: fallback(dict(call.arguments)))
    return router


def request(hedge: Any | None, preferred: str = "primary_api", scope: str = "same_provider") -> PlanRequest:
    extra = {"hedge": hedge} if hedge is not None else {}
    return PlanRequest(
        query="Si band gap",
        arguments={"formula": "Si"},
        preferred_tools=[preferred],
        fallback_scope=scope,  # type: ignore[arg-type]
        **extra,
    )


async def _timed(ask: Callable[[], Awaitable[Any]], questions: int) -> list[float]:
    latencies = []
    for _ in range(questions):
        started = time.perf_counter()
        await ask()
        latencies.append(time.perf_counter() - started)
    return latencies


async def run_router(questions: int, client_timeout: float, hedge: Any | None) -> dict[str, Any]:
    """One repeat for our router: warm up healthy, start the outage, time *questions* answers."""
    with LoopbackServer() as primary_server, LoopbackServer() as fallback_server:
        async with httpx.AsyncClient(timeout=client_timeout) as client:
            router = build_router(
                http_call(client, primary_server.url), http_call(client, fallback_server.url)
            )
            plan_request = request(hedge)

            async def ask() -> None:
                result = await router.invoke(plan_request)
                assert result.records[0]["band_gap"] == 0.61, result.records

            async with router:
                await _timed(ask, WARM_UP)
                primary_server.hanging, before = True, primary_server.requests
                latencies = await _timed(ask, questions)
        return {"latencies": latencies, "primary_requests": primary_server.requests - before}


async def run_with_fallbacks(questions: int, client_timeout: float) -> dict[str, Any]:
    """One repeat for LangChain ``with_fallbacks`` over the same two HTTP calls."""
    from langchain_core.runnables import RunnableLambda

    with LoopbackServer() as primary_server, LoopbackServer() as fallback_server:
        async with httpx.AsyncClient(timeout=client_timeout) as client:
            primary = http_call(client, primary_server.url)
            fallback = http_call(client, fallback_server.url)
            chain = RunnableLambda(primary).with_fallbacks([RunnableLambda(fallback)])

            async def ask() -> None:
                answer = await chain.ainvoke({"formula": "Si"})
                assert answer == {"data": [{"formula": "Si", "band_gap": 0.61}]}, answer

            await _timed(ask, WARM_UP)
            primary_server.hanging, before = True, primary_server.requests
            latencies = await _timed(ask, questions)
        return {"latencies": latencies, "primary_requests": primary_server.requests - before}


async def fallback_alone(client_timeout: float, repeats: int = 50) -> float:
    """Median time for the router to answer from the fallback HTTP server, no outage."""
    with LoopbackServer() as fallback_server:
        async with httpx.AsyncClient(timeout=client_timeout) as client:
            call = http_call(client, fallback_server.url)
            router = build_router(call, call)
            plan_request = request(None, preferred="mirror_api", scope="disabled")
            async with router:
                await _timed(lambda: router.invoke(plan_request), WARM_UP)
                return statistics.median(await _timed(lambda: router.invoke(plan_request), repeats))


async def _concurrently(make: Callable[[], Awaitable[dict[str, Any]]], repeats: int) -> list[dict[str, Any]]:
    runs: list[dict[str, Any]] = []

    async def one() -> None:
        runs.append(await make())

    async with anyio.create_task_group() as group:
        for _ in range(repeats):
            group.start_soon(one)
    return runs


def summarise(runs: list[dict[str, Any]], client_timeout: float) -> dict[str, Any]:
    """Per question index the median across repeats; totals and counts as medians of repeats."""
    per_question = [statistics.median(values) for values in zip(*(r["latencies"] for r in runs), strict=True)]
    return {
        "repeats": len(runs),
        "per_question_ms": [round(x * 1000, 3) for x in per_question],
        "total_s": round(statistics.median(sum(r["latencies"]) for r in runs), 4),
        "first_ms": round(per_question[0] * 1000, 3),
        "rest_median_ms": round(statistics.median(per_question[1:] or per_question) * 1000, 3),
        "failed_waits": statistics.median(
            sum(x >= 0.95 * client_timeout for x in r["latencies"]) for r in runs
        ),
        "slow_answers": statistics.median(sum(x > SLOW_AFTER for x in r["latencies"]) for r in runs),
        "worst_ms": round(max(per_question) * 1000, 3),
        "primary_requests": statistics.median(r["primary_requests"] for r in runs),
    }


async def _measure(questions: int, client_timeout: float, repeats: int, wf_repeats: int) -> dict[str, Any]:
    variants: dict[str, Any] = {}
    variants["ours"] = summarise(
        [await run_router(questions, client_timeout, None) for _ in range(repeats)], client_timeout
    )
    hedge = hedge_policy(HEDGE_AFTER)
    if hedge is None:
        print("ours hedged: skipped (HedgePolicy is not importable from schemarouter_integrations yet)")
    else:
        runs = [await run_router(questions, client_timeout, hedge) for _ in range(repeats)]
        variants["ours_hedged"] = summarise(runs, client_timeout)
    try:
        runs = await _concurrently(lambda: run_with_fallbacks(questions, client_timeout), wf_repeats)
        variants["with_fallbacks"] = summarise(runs, client_timeout)
    except ImportError as exc:
        print(f"with_fallbacks: skipped ({exc})")
    return {"variants": variants, "fallback_alone_ms": round(await fallback_alone(client_timeout) * 1000, 3)}


def ratios(outcome: dict[str, Any]) -> dict[str, float]:
    """The side-by-side ratios of one run (bigger is better for the variant named second)."""
    v = outcome["variants"]
    out: dict[str, float] = {}
    pairs = [("with_fallbacks", "ours"), ("with_fallbacks", "ours_hedged"), ("ours", "ours_hedged")]
    for slow, fast in pairs:
        if slow in v and fast in v:
            out[f"total {slow} / {fast}"] = round(v[slow]["total_s"] / v[fast]["total_s"], 2)
            out[f"question 1 {slow} / {fast}"] = round(v[slow]["first_ms"] / v[fast]["first_ms"], 2)
    return out


def main(
    questions: int = QUESTIONS,
    client_timeout: float = CLIENT_TIMEOUT,
    repeats: int = REPEATS,
    wf_repeats: int = WITH_FALLBACKS_REPEATS,
) -> dict[str, Any]:
    outcome = anyio.run(_measure, questions, client_timeout, repeats, wf_repeats)
    outcome |= {"questions": questions, "client_timeout_s": client_timeout, "hedge_after_s": HEDGE_AFTER}
    outcome["ratios"] = ratios(outcome)
    if "ours_hedged" in outcome["variants"]:
        limit = HEDGE_AFTER * 1000 + outcome["fallback_alone_ms"] + TARGET_SLACK * 1000
        first = outcome["variants"]["ours_hedged"]["first_ms"]
        series = outcome["variants"]["ours_hedged"]["per_question_ms"]
        outcome["hedge_target"] = {
            "limit_ms": round(limit, 3),
            "first_ms": first,
            "met": first <= limit,
            "questions_over_limit": [i + 1 for i, x in enumerate(series) if x > limit],
        }
    print(
        f"{questions} questions from the moment the primary hangs (client timeout {client_timeout}s); "
        f"fallback alone {outcome['fallback_alone_ms']} ms"
    )
    print(f"{'':<16}{'repeats':>8}{'total s':>9}{'q1 ms':>9}{'rest median ms':>16}", end="")
    print(f"{'failed':>8}{'primary hits':>14}")
    for name, row in outcome["variants"].items():
        print(
            f"{name:<16}{row['repeats']:>8}{row['total_s']:>9}{row['first_ms']:>9}"
            f"{row['rest_median_ms']!s:>16}{row['failed_waits']:>8}{row['primary_requests']:>14}"
        )
    for name, value in outcome["ratios"].items():
        print(f"{name}: {value}x")
    if "hedge_target" in outcome:
        print(f"hedge target: {outcome['hedge_target']}")
    return {"outage_timeline": outcome}


if __name__ == "__main__":
    main()
