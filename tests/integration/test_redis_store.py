"""RedisAvailabilityStore against a real redis-server: routers in one process, each with
its own connection, share cooldowns, load them late and survive Redis going away."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable

import anyio
import pytest

from schemarouter_integrations import SchemaRouter
from tests.servers.redis_server import RedisServer
from tests.support.fakes import FakeClock
from tests.support.fleet import PATH, REQUEST, router_on

pytestmark = [pytest.mark.integration, pytest.mark.redis, pytest.mark.anyio]


async def eventually(check: Callable[[], bool], within: float = 10.0) -> None:
    """Wait for background propagation (a liveness bound, not a speed assertion)."""
    with anyio.fail_after(within):
        while not check():  # noqa: ASYNC110 - the state changes in background tasks, no event to wait on
            await anyio.sleep(0.01)


def unavailable(router: SchemaRouter) -> list[str]:
    return router.inspect().execution.unavailable_access_paths


def primary(router: SchemaRouter) -> str | None:
    call = router.plan(REQUEST).primary
    return call.access_path if call else None


async def test_a_mark_made_by_one_router_reaches_another(redis_server: RedisServer) -> None:
    a, b = router_on(redis_server), router_on(redis_server)
    async with a, b:
        assert primary(b) == PATH
        a.mark_access_unavailable("mp_api", "search", reason="upstream timeout")
        await eventually(lambda: PATH in unavailable(b))
        assert primary(b) == "mp_optimade.search"
        assert b.inspect().execution.cooldown_reasons[PATH] == "upstream timeout"


async def test_a_failed_invocation_cools_the_path_for_the_whole_fleet(redis_server: RedisServer) -> None:
    a, b = router_on(redis_server, down=("mp_api",)), router_on(redis_server)
    async with a, b:
        result = await a.invoke(REQUEST)
        assert result.route == [PATH, "mp_optimade.search"]
        await eventually(lambda: PATH in unavailable(b))
        assert 0 < b.inspect().execution.cooldowns[PATH] <= 30


async def test_clearing_on_one_router_reopens_the_path_everywhere(redis_server: RedisServer) -> None:
    a, b = router_on(redis_server), router_on(redis_server)
    async with a, b:
        a.mark_access_unavailable("mp_api", "search")
        await eventually(lambda: PATH in unavailable(b))
        b.mark_access_available("mp_api", "search")
        await eventually(lambda: PATH not in unavailable(a))
        assert primary(a) == PATH


async def test_marks_are_redis_keys_with_a_ttl(redis_server: RedisServer) -> None:
    router = router_on(redis_server, namespace="acme")
    async with router:
        router.mark_access_unavailable("mp_api", "search", seconds=20, reason="maintenance")
        with anyio.fail_after(5):
            await router.availability_store.flush()
        client = redis_server.client(decode_responses=True)
        ttl_ms = client.pttl(f"acme:cooldown:{PATH}")
        value = json.loads(client.get(f"acme:cooldown:{PATH}"))
    assert 0 < ttl_ms <= 20_000
    assert (value["reason"], value["failures"]) == ("maintenance", 1)


@pytest.mark.parametrize("seconds", [3600, 1e300], ids=["one_hour", "longer_than_redis_allows"])
async def test_an_application_mark_longer_than_max_seconds_reaches_the_fleet(
    redis_server: RedisServer, seconds: float
) -> None:
    a, b = router_on(redis_server), router_on(redis_server)  # max_seconds=300
    async with a, b:
        a.mark_access_unavailable("mp_api", "search", seconds=seconds, reason="announced outage")
        await eventually(lambda: PATH in unavailable(b))
        ttl_ms = redis_server.client(decode_responses=True).pttl(f"fleet:cooldown:{PATH}")
        assert ttl_ms > 3_500_000
        assert b.inspect().execution.cooldowns[PATH] > 3500
        assert a.inspect().health.store["last_error"] is None


async def test_a_router_started_late_loads_the_existing_marks(redis_server: RedisServer) -> None:
    early = router_on(redis_server)
    async with early:
        early.mark_access_unavailable("mp_api", "search", seconds=60)
        with anyio.fail_after(5):
            await early.availability_store.flush()
        late = router_on(redis_server)
        async with late:  # start() returns after the first load
            assert unavailable(late) == [PATH]
            assert 0 < late.inspect().execution.cooldowns[PATH] <= 60


async def test_namespaces_keep_fleets_apart(redis_server: RedisServer) -> None:
    one = router_on(redis_server, namespace="one")
    async with one:
        one.mark_access_unavailable("mp_api", "search")
        with anyio.fail_after(5):
            await one.availability_store.flush()
        same, other = router_on(redis_server, namespace="one"), router_on(redis_server, namespace="two")
        async with same, other:
            assert (unavailable(same), unavailable(other)) == ([PATH], [])


async def test_the_mirror_converts_the_remaining_ttl_to_each_routers_clock(redis_server: RedisServer) -> None:
    a, b = router_on(redis_server, clock=FakeClock(1000.0)), router_on(redis_server, clock=FakeClock(5.0))
    async with a, b:
        a.mark_access_unavailable("mp_api", "search", seconds=40)
        await eventually(lambda: PATH in unavailable(b))
        mark = b.availability_store.get(PATH)
        assert mark is not None and mark.until == pytest.approx(45.0, abs=0.01)


async def test_peer_grace_lets_the_recording_router_retry_first(redis_server: RedisServer) -> None:
    clock = FakeClock()
    recorder = router_on(redis_server, clock=clock, peer_grace_seconds=2)
    peer = router_on(redis_server, clock=clock, peer_grace_seconds=2)
    async with recorder, peer:
        recorder.mark_access_unavailable("mp_api", "search", seconds=10)
        await eventually(lambda: PATH in unavailable(peer))
        clock.advance(10)
        assert (unavailable(recorder), unavailable(peer)) == ([], [PATH])
        recorder.mark_access_available("mp_api", "search")  # its retry succeeded
        await eventually(lambda: PATH not in unavailable(peer))


async def test_routers_keep_routing_on_their_local_view_while_redis_is_down(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="schemarouter_integrations.stores.redis")
    router = router_on(redis_server, down=("mp_api",))
    async with router:
        redis_server.stop()
        await eventually(lambda: not router.inspect().health.store["connected"])
        result = await router.invoke(REQUEST)
        assert result.tool == "mp_optimade"
        assert unavailable(router) == [PATH]
        assert primary(router) == "mp_optimade.search"
        store = router.inspect().health.store
        assert store["connected"] is False
        assert "ConnectionError" in store["last_error"]
        assert store["pending_writes"] == 1
        assert any("unreachable" in r.getMessage() for r in caplog.records)


async def test_routers_resynchronise_when_redis_returns(redis_server: RedisServer) -> None:
    a, b = router_on(redis_server), router_on(redis_server)
    async with a, b:
        a.mark_access_unavailable("mp_python", "search", seconds=120)
        await eventually(lambda: "mp_python.search" in unavailable(b))
        redis_server.stop()  # Redis comes back empty: no persistence
        await eventually(lambda: not a.inspect().health.store["connected"])
        a.mark_access_unavailable("mp_api", "search", seconds=120)
        b.mark_access_unavailable("oqmd_api", "search", seconds=120)
        redis_server.start()
        expected = ["mp_api.search", "mp_python.search", "oqmd_api.search"]
        await eventually(lambda: unavailable(a) == expected and unavailable(b) == expected)
        for router in (a, b):
            store = router.inspect().health.store
            assert (store["connected"], store["last_error"]) == (True, None)
            assert store["reconnects"] >= 1
        keys = redis_server.client(decode_responses=True).keys("fleet:cooldown:*")
        assert sorted(k.removeprefix("fleet:cooldown:") for k in keys) == expected


async def test_a_store_that_cannot_reach_redis_at_start_still_serves(redis_server: RedisServer) -> None:
    redis_server.stop()
    router = router_on(redis_server, down=("mp_api",), connect_timeout_seconds=0.5)
    async with router:
        result = await router.invoke(REQUEST)
        assert result.tool == "mp_optimade"
        assert router.inspect().health.store["connected"] is False
        redis_server.start()
        await eventually(lambda: router.inspect().health.store["connected"])
        client = redis_server.client(decode_responses=True)
        await eventually(lambda: client.exists(f"fleet:cooldown:{PATH}") == 1)


async def test_a_successful_probe_on_one_router_reopens_the_path_for_all(redis_server: RedisServer) -> None:
    watcher, user = router_on(redis_server), router_on(redis_server)

    async def healthy() -> bool:
        return True

    async with watcher, user:
        user.mark_access_unavailable("mp_api", "search", seconds=300)
        await eventually(lambda: PATH in unavailable(watcher))
        watcher.register_health_probe("mp_api", "search", healthy)
        await watcher.start_health_monitor(interval_seconds=60, probe_timeout_seconds=5)
        await eventually(lambda: PATH not in unavailable(user))
        assert primary(user) == PATH
