"""The rate limiter's script on a real redis-server: a process back from deciding alone pays
its share's debt into the TAT and opens the fleet's handover, during which a process that never
left Redis is held by its own share too."""

from __future__ import annotations

import uuid

import pytest
import redis.asyncio as aioredis

from schemarouter_integrations.stores import RedisRateLimiter
from schemarouter_integrations.stores._breaker import Breaker
from tests.servers.redis_server import RedisServer

pytestmark = [pytest.mark.integration, pytest.mark.redis, pytest.mark.anyio]

KEY, RATE, BURST = "route:limited", 10.0, 4.0


async def test_back_on_redis_a_process_opens_a_handover_that_holds_the_others_to_their_shares(
    redis_server: RedisServer,
) -> None:
    namespace = f"handover-{uuid.uuid4().hex[:8]}"
    paused = [True]
    breaker = Breaker(clock=lambda: 0.0 if paused[0] else 10.0)
    away = RedisRateLimiter(redis_server.url, namespace, breaker=breaker, fleet_size=2)
    steady = RedisRateLimiter(redis_server.url, namespace, fleet_size=2)
    for _ in range(breaker.failures_to_open):
        breaker.failed()  # as after three errors in a row: the share decides alone
    assert await away.reserve(KEY, RATE, BURST, 1.0) is not None
    paused[0] = False  # the breaker's pause is over

    assert await away.reserve(KEY, RATE, BURST, 1.0) is not None  # back: pays, opens the handover
    wait = await steady.reserve(KEY, RATE, BURST, 1.0)

    client = aioredis.Redis.from_url(redis_server.url)
    try:
        handover_ms = await client.pttl(f"{namespace}:ratelimit-handover:{KEY}")
    finally:
        await client.aclose()
    await away.aclose()
    await steady.aclose()
    # Redis alone would give the burst's second call at once; the share (5/s, burst 2) starts empty
    assert wait is not None and wait > 0.1
    assert handover_ms > 0
    assert steady.handover_calls == 1
    assert away.returns == 1 and away.local_calls == 1
