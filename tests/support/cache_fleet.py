"""A worker of the cache and rate-limit fleet tests (``tests/integration/test_cache_fleet.py``).

``python -m tests.support.cache_fleet coalesce REDIS_URL SERVER_URL NAMESPACE``: builds a
router with a ``RedisAnswerCache``, prints ``ready``, waits for a line on stdin, asks 100
identical questions at once and prints one JSON line (answered, cached, errors).

``python -m tests.support.cache_fleet ratelimit REDIS_URL SERVER_URL NAMESPACE SECONDS``:
builds a router on a ``RedisAvailabilityStore`` (so ``RateLimit(20)`` is kept on Redis),
prints ``ready``, waits for a line, then runs 8 loops of questions for SECONDS and prints
one JSON line (answered, rate_limited passes, 429s met). Everything is loopback and bounded.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any

import anyio
import anyio.to_thread
import httpx

from schemarouter_integrations import (
    CachePolicy,
    InvocationUnavailableError,
    PlanRequest,
    RateLimit,
    SchemaRouter,
    SchemaRouterError,
)
from schemarouter_integrations.stores import RedisAnswerCache, RedisAvailabilityStore

FIELDS = ["band_gap", "formula"]


def upstream(server: str, client: httpx.AsyncClient) -> Any:
    async def search(formula: str) -> list[dict[str, Any]]:
        response = await client.get(f"{server}/gap", params={"formula": formula})
        if response.status_code == 429:
            raise InvocationUnavailableError("429 too many requests", status_code=429)
        response.raise_for_status()
        return [response.json()]

    return search


async def coalesce(redis_url: str, server: str, namespace: str) -> dict[str, Any]:
    async with httpx.AsyncClient(timeout=30) as client:
        router = SchemaRouter(answer_cache=RedisAnswerCache(redis_url, namespace))
        router.add_callable(
            upstream(server, client), name="mp", endpoint="search", read_only=True, fields=FIELDS
        )
        request = PlanRequest(
            query="band gap", arguments={"formula": "Si"}, cache=CachePolicy(ttl_seconds=60)
        )
        await router.invoke(PlanRequest(query="band gap", arguments={"formula": "warm"}))  # imports, pools
        print("ready", flush=True)
        await anyio.to_thread.run_sync(sys.stdin.readline)
        outcomes: Counter[str] = Counter()

        async def one() -> None:
            try:
                result = await router.invoke(request)
                outcomes["cached" if result.cached else "called"] += 1
            except SchemaRouterError as exc:
                outcomes[type(exc).__name__] += 1

        async with router, anyio.create_task_group() as group:
            for _ in range(100):
                group.start_soon(one)
        return dict(outcomes)


async def ratelimit(redis_url: str, server: str, namespace: str, seconds: float) -> dict[str, Any]:
    async with httpx.AsyncClient(timeout=30) as client:
        store = RedisAvailabilityStore(redis_url, namespace)
        router = SchemaRouter(availability_store=store)
        limit = RateLimit(20, max_wait_seconds=2.0)
        router.add_callable(
            upstream(server, client),
            name="mp",
            endpoint="search",
            read_only=True,
            fields=FIELDS,
            rate_limit=limit,
        )
        outcomes: Counter[str] = Counter()
        async with router:
            print("ready", flush=True)
            await anyio.to_thread.run_sync(sys.stdin.readline)

            async def loop(index: int) -> None:
                with anyio.move_on_after(seconds):
                    n = 0
                    while True:
                        n += 1
                        request = PlanRequest(query="band gap", arguments={"formula": f"X{index}_{n}"})
                        try:
                            await router.invoke(request)
                            outcomes["answered"] += 1
                        except SchemaRouterError as exc:
                            attempts = getattr(exc, "attempts", [])
                            kinds = {a.error_type for a in attempts}
                            outcomes["rate_limited" if kinds == {"RateLimitedError"} else "failed"] += 1
                            if any("429" in (a.error or "") for a in attempts):
                                outcomes["met_429"] += 1
                            router.mark_access_available("mp", "search")

            async with anyio.create_task_group() as group:
                for index in range(8):
                    group.start_soon(loop, index)
        return dict(outcomes)


def main() -> None:
    mode, redis_url, server, namespace, *rest = sys.argv[1:]
    if mode == "coalesce":
        out = anyio.run(coalesce, redis_url, server, namespace)
    else:
        out = anyio.run(ratelimit, redis_url, server, namespace, float(rest[0]))
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
