"""``stores.RedisStore(url, namespace=)``: one object for a fleet's cooldowns, answers and rate
limits on one Redis, passed where the Redis parts are (real redis-server)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from schemarouter_integrations import (
    AllRoutesUnavailableError,
    CachePolicy,
    PlanRequest,
    RateLimit,
    SchemaRouter,
)
from schemarouter_integrations.stores import RedisAnswerCache, RedisRateLimiter, RedisStore
from tests.servers.redis_server import RedisServer

pytestmark = [pytest.mark.integration, pytest.mark.redis, pytest.mark.anyio]


async def band_gap(formula: str) -> list[dict[str, Any]]:
    return [{"formula": formula, "band_gap": 1.1}]


def worker(url: str, namespace: str) -> SchemaRouter:
    store = RedisStore(url, namespace=namespace)
    router = SchemaRouter(
        availability_store=store, answer_cache=store.answers, rate_limiter=store.rate_limits
    )
    limit = RateLimit(0.5, burst=1, max_wait_seconds=0)
    router.add_callable(band_gap, name="mp", read_only=True, fields=["band_gap", "formula"], rate_limit=limit)
    return router


async def test_two_workers_on_one_redis_store_share_answers_and_rate_limits(
    redis_server: RedisServer,
) -> None:
    namespace = f"store-{uuid.uuid4().hex[:8]}"
    first, second = worker(redis_server.url, namespace), worker(redis_server.url, namespace)
    assert isinstance(first.answer_cache, RedisAnswerCache)
    assert isinstance(first.rate_gate.backend, RedisRateLimiter)
    cached = PlanRequest(query="band gap", arguments={"formula": "Si"}, cache=CachePolicy(ttl_seconds=60))
    async with first, second:
        await first.invoke(cached)
        served = await second.invoke(cached)
        with pytest.raises(AllRoutesUnavailableError):  # the one turn of the limit went to the first
            await second.invoke(PlanRequest(query="band gap", arguments={"formula": "Ge"}))
    assert served.cached is True
    assert first.inspect().health.store["namespace"] == namespace
