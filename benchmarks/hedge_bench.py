"""Hedged fallback against its two targets (issue 17), measured side by side in one run.

1. **Outage onset** over real loopback HTTP (``tests/servers/fault_server.py``): the primary
   hangs (accepts, never answers; client timeout 0.5 s), a same-provider mirror answers. A
   fresh router per repeat asks once, so every repeat is the first question of an outage.
   Measured: time to answer hedged (``HedgePolicy(0.05)``) and unhedged, and the mirror's own
   latency (asked directly, same run). Target: hedged answer <= after_seconds + mirror + 10 ms.
2. **While healthy** (in-process invokers): the primary answers every call, 30% of them slower
   than ``after_seconds`` (1 ms or 20 ms, seeded), the fallback in 1 ms. Every hedge is then an
   extra call (the hedged-from call answers after all). Measured: hedges / calls over 1,000
   calls, and over calls 101-1,000 (after the bucket's initial burst of 5). Target: at most
   ``max_extra_fraction`` (0.1); the bucket's bound is 0.1 * N + 5, so over 1,000 calls up to
   10.5% (the burst is what lets the first questions of an outage be hedged).

Run: ``.venv/bin/python benchmarks/hedge_bench.py``.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from schemarouter_integrations import (
    EndpointSpec,
    FieldSpec,
    HedgePolicy,
    PlanRequest,
    RetryPolicy,
    SchemaRouter,
    ToolCall,
    ToolSpec,
)
from tests.servers.fault_server import FaultServer, Hang, Reply
from tests.support.hedging import MIRROR_RECORDS

AFTER = 0.05
TIMEOUT = 0.5
ONSET_REPEATS = 7
HEALTHY_CALLS = 1000
HEALTHY_AFTER = 0.01
SLOW_SHARE = 0.3
WARMUP_CALLS = 100  # the bucket's initial burst of 5 is spent in these


def _request(preferred: str, hedge: HedgePolicy | None) -> PlanRequest:
    return PlanRequest(
        "Si band gap",
        arguments={"formula": "Si"},
        preferred_tools=[preferred],
        fallback_scope="same_provider",
        hedge=hedge,
    )


async def _onset_router(servers: tuple[FaultServer, FaultServer], slug: str) -> SchemaRouter:
    """The hanging route and the mirror, each on its own server: a transport failure cools the
    whole origin, so a mirror on the hanging route's origin would be skipped, not asked."""
    router = SchemaRouter()
    answer = Reply(200, {"content-type": "application/json"}, json.dumps({"data": MIRROR_RECORDS}).encode())
    for name, server, fault in (("hanging", servers[0], Hang()), ("mirror", servers[1], answer)):
        await router.add_url(
            server.route(f"{slug}-{name}", fault),
            kind="openapi",
            name=name,
            provider="p",
            retry=RetryPolicy(max_attempts=1),
            timeout_seconds=TIMEOUT,
        )
    return router


async def _timed(router: SchemaRouter, request: PlanRequest, expect: str) -> float:
    start = time.perf_counter()
    result = await router.invoke(request)
    elapsed = time.perf_counter() - start
    if result.tool != expect:
        raise RuntimeError(f"expected {expect}, got {result.tool}")
    return elapsed


async def _onset(servers: tuple[FaultServer, FaultServer]) -> dict[str, float]:
    hedged: list[float] = []
    unhedged: list[float] = []
    mirror: list[float] = []
    for repeat in range(ONSET_REPEATS):
        for variant in ("hedged", "unhedged"):
            router = await _onset_router(servers, f"onset{repeat}{variant}")
            async with router:
                await _timed(router, _request("mirror", None), "mirror")  # warm the connection pool
                mirror.append(await _timed(router, _request("mirror", None), "mirror"))
                hedge = HedgePolicy(AFTER) if variant == "hedged" else None
                took = await _timed(router, _request("hanging", hedge), "mirror")
                (hedged if hedge else unhedged).append(took)
    mirror_ms = statistics.median(mirror) * 1000
    hedged_ms = statistics.median(hedged) * 1000
    return {
        "hedge.onset.hedged_ms": round(hedged_ms, 2),
        "hedge.onset.unhedged_ms": round(statistics.median(unhedged) * 1000, 2),
        "hedge.onset.mirror_ms": round(mirror_ms, 2),
        "hedge.onset.after_ms": AFTER * 1000,
        "hedge.onset.overhead_ms": round(hedged_ms - AFTER * 1000 - mirror_ms, 2),
        "hedge.onset.ratio_unhedged_over_hedged": round(
            statistics.median(unhedged) / statistics.median(hedged), 2
        ),
    }


def _spec(name: str) -> ToolSpec:
    endpoint = EndpointSpec(
        name="search",
        read_only=True,
        input_schema={"type": "object", "properties": {"formula": {"type": "string"}}},
        records_path=["data"],
        fields=[FieldSpec(name="band_gap", path=["band_gap"])],
    )
    return ToolSpec(name=name, provider="p", access_mode="python", endpoints=[endpoint])


async def _healthy() -> dict[str, float]:
    rng = random.Random(17)
    router = SchemaRouter()

    async def primary(call: ToolCall) -> Any:
        await anyio.sleep(0.02 if rng.random() < SLOW_SHARE else 0.001)
        return {"data": [{"band_gap": 1.0}]}

    async def fallback(call: ToolCall) -> Any:
        await anyio.sleep(0.001)
        return {"data": [{"band_gap": 1.0}]}

    router.register(_spec("hanging"), primary)
    router.register(_spec("mirror"), fallback)
    policy = HedgePolicy(HEALTHY_AFTER, max_extra_fraction=0.1)
    hedged: list[bool] = []
    async with router:
        for _ in range(HEALTHY_CALLS):
            result = await router.invoke(_request("hanging", policy))
            hedged.append(any(e.type == "tool.hedge" for e in result.events))
        await anyio.sleep(0.05)  # let the last outrun calls finish
    hedges = sum(hedged)
    later = hedged[WARMUP_CALLS:]
    return {
        "hedge.healthy.calls": HEALTHY_CALLS,
        "hedge.healthy.slow_share": SLOW_SHARE,
        "hedge.healthy.hedges": hedges,
        "hedge.healthy.extra_fraction": round(hedges / HEALTHY_CALLS, 4),
        "hedge.healthy.extra_fraction_after_burst": round(sum(later) / len(later), 4),
        "hedge.healthy.max_extra_fraction": policy.max_extra_fraction,
    }


async def _measure() -> dict[str, float]:
    with FaultServer() as hanging, FaultServer() as mirror:
        onset = await _onset((hanging, mirror))
    return {**onset, **await _healthy()}


def main() -> dict[str, float]:
    results = anyio.run(_measure)
    onset_ok = results["hedge.onset.overhead_ms"] <= 10
    healthy_ok = results["hedge.healthy.extra_fraction"] <= results["hedge.healthy.max_extra_fraction"]
    print(f"outage onset, median of {ONSET_REPEATS} first questions (hang + 0.5 s timeout, mirror):")
    print(
        f"  hedged {results['hedge.onset.hedged_ms']:.1f} ms = after {AFTER * 1000:.0f} ms + mirror "
        f"{results['hedge.onset.mirror_ms']:.1f} ms + {results['hedge.onset.overhead_ms']:.1f} ms "
        f"(target <= 10 ms: {'ok' if onset_ok else 'MISSED'}); unhedged "
        f"{results['hedge.onset.unhedged_ms']:.1f} ms ({results['hedge.onset.ratio_unhedged_over_hedged']}x)"
    )
    print(
        f"while healthy: {results['hedge.healthy.hedges']:.0f} hedges in {HEALTHY_CALLS} calls "
        f"({results['hedge.healthy.extra_fraction']:.1%}; {SLOW_SHARE:.0%} of calls slow; target <= "
        f"{results['hedge.healthy.max_extra_fraction']:.0%}: {'ok' if healthy_ok else 'MISSED'}); "
        f"after the first {WARMUP_CALLS} calls: {results['hedge.healthy.extra_fraction_after_burst']:.1%}"
    )
    return results


if __name__ == "__main__":
    main()
