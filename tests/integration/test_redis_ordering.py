"""The newer change of a path wins across the fleet, whichever router reconnects first after
Redis was away: a reopen made during the outage is not undone by a peer's stale mark."""

from __future__ import annotations

import json
from collections.abc import Callable

import anyio
import pytest

from schemarouter_integrations import SchemaRouter
from tests.servers.redis_server import RedisServer
from tests.support.fleet import PATH, router_on

pytestmark = [pytest.mark.integration, pytest.mark.redis, pytest.mark.anyio]

FAST = {"reconnect_min_seconds": 0.05, "reconnect_max_seconds": 0.1}
SLOW = {"reconnect_min_seconds": 1.5, "reconnect_max_seconds": 1.5}


async def eventually(check: Callable[[], bool], within: float = 10.0) -> None:
    """Wait for background propagation (a liveness bound, not a speed assertion)."""
    with anyio.fail_after(within):
        while not check():  # noqa: ASYNC110 - the state changes in background tasks
            await anyio.sleep(0.01)


def unavailable(router: SchemaRouter) -> list[str]:
    return router.inspect().execution.unavailable_access_paths


def connected(router: SchemaRouter) -> bool:
    return bool(router.inspect().health.store["connected"])


async def outage_with_a_reopen(redis_server: RedisServer, a: SchemaRouter, b: SchemaRouter) -> None:
    """A marks the path, B mirrors it, Redis goes away (and comes back empty later); A reopens."""
    a.mark_access_unavailable("mp_api", "search", seconds=120)
    await eventually(lambda: PATH in unavailable(b))
    redis_server.stop()
    await eventually(lambda: not connected(a) and not connected(b))
    a.mark_access_available("mp_api", "search")
    assert (unavailable(a), unavailable(b)) == ([], [PATH])


async def test_a_reopen_made_while_redis_is_away_wins_when_its_router_reconnects_first(
    redis_server: RedisServer,
) -> None:
    a, b = router_on(redis_server, **FAST), router_on(redis_server, **SLOW)
    async with a, b:
        await outage_with_a_reopen(redis_server, a, b)
        redis_server.start()
        await eventually(lambda: connected(a))
        assert not connected(b), "the test needs A to reconnect first"
        await eventually(lambda: connected(b))
        await eventually(lambda: unavailable(b) == [])
        await anyio.sleep(0.3)  # B's resync has run: nothing may bring the stale mark back
        assert (unavailable(a), unavailable(b)) == ([], [])
        value = redis_server.client(decode_responses=True).get(f"fleet:cooldown:{PATH}")
        assert value is None or json.loads(value)["cleared"] is True


async def test_a_reopen_made_while_redis_is_away_wins_when_the_stale_router_reconnects_first(
    redis_server: RedisServer,
) -> None:
    a, b = router_on(redis_server, **SLOW), router_on(redis_server, **FAST)
    async with a, b:
        await outage_with_a_reopen(redis_server, a, b)
        redis_server.start()
        await eventually(lambda: connected(b))
        assert not connected(a), "the test needs B to reconnect first"
        await eventually(lambda: connected(a))
        await eventually(lambda: unavailable(b) == [])
        await anyio.sleep(0.3)
        assert (unavailable(a), unavailable(b)) == ([], [])


async def test_a_mark_made_after_a_reopen_wins_over_that_reopen(redis_server: RedisServer) -> None:
    a, b = router_on(redis_server, **FAST), router_on(redis_server, **SLOW)
    async with a, b:
        await outage_with_a_reopen(redis_server, a, b)
        b.mark_access_unavailable("mp_api", "search", seconds=60, reason="B saw it fail later")
        redis_server.start()
        await eventually(lambda: connected(a) and connected(b))
        await eventually(lambda: PATH in unavailable(a))
        await anyio.sleep(0.3)
        assert (unavailable(a), unavailable(b)) == ([PATH], [PATH])
        assert a.inspect().execution.cooldown_reasons[PATH] == "B saw it fail later"


async def test_a_reopen_leaves_a_tombstone_as_long_as_the_mark_could_live(redis_server: RedisServer) -> None:
    router = router_on(redis_server, peer_grace_seconds=5)
    async with router:
        router.mark_access_unavailable("mp_api", "search", seconds=30)
        router.mark_access_available("mp_api", "search")
        with anyio.fail_after(5):
            await router.availability_store.flush()
        client = redis_server.client(decode_responses=True)
        value = json.loads(client.get(f"fleet:cooldown:{PATH}"))
        assert value["cleared"] is True
        assert 30_000 < client.pttl(f"fleet:cooldown:{PATH}") <= 35_000
