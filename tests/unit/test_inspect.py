"""router.inspect(): bindings, cooldowns, probes, monitor and store, as plain data only."""

from __future__ import annotations

import json

import pytest

from schemarouter_integrations import SchemaRouter
from schemarouter_integrations.stores import RedisAvailabilityStore
from tests.support.fakes import FakeClock
from tests.support.health import FakeProbe, health_router, start
from tests.support.seed import RECORDS, mp_api, seed_router

SECRET = "sk-live-9f8e7d6c5b4a"


def test_inspect_lists_unavailable_paths_with_seconds_left_and_reason() -> None:
    clock = FakeClock()
    router, _ = seed_router(SchemaRouter(clock=clock))
    router.mark_access_unavailable("oqmd_api", "search", seconds=20, reason="maintenance")
    router.mark_access_unavailable("mp_api", "search", seconds=50)
    clock.advance(5)
    execution = router.inspect().execution
    assert execution.unavailable_access_paths == ["mp_api.search", "oqmd_api.search"]
    assert execution.cooldowns == {"mp_api.search": 45.0, "oqmd_api.search": 15.0}
    assert execution.cooldown_reasons["oqmd_api.search"] == "maintenance"


def test_inspect_drops_expired_cooldowns() -> None:
    clock = FakeClock()
    router, _ = seed_router(SchemaRouter(clock=clock))
    router.mark_access_unavailable("mp_api", "search", seconds=10)
    clock.advance(10)
    assert router.inspect().execution.unavailable_access_paths == []


def test_inspect_keeps_binding_states_apart_from_health() -> None:
    router, _ = seed_router(SchemaRouter(clock=FakeClock()))
    router.unbind("mp_optimade")
    router.mark_access_unavailable("mp_api", "search")
    execution = router.inspect().execution
    assert execution.binding_states["mp_api"] == "ready"
    assert execution.binding_states["mp_optimade"] == "unbound"
    assert "mp_optimade.search" not in execution.unavailable_access_paths


def test_inspect_shows_the_memory_store_status() -> None:
    router, _ = seed_router(SchemaRouter(clock=FakeClock()))
    router.mark_access_unavailable("mp_api", "search")
    store = router.inspect().health.store
    assert store == {"kind": "memory", "shared": False, "connected": True, "last_error": None, "marks": 1}


@pytest.mark.anyio
async def test_inspect_shows_each_probe_and_the_monitor() -> None:
    router, _, clock = health_router()
    router.register_health_probe("mp_api", "search", FakeProbe(False))
    router.register_health_probe("oqmd_api", "search", FakeProbe(True))
    assert router.inspect().health.probes["mp_api.search"].runs == 0
    await start(router, interval_seconds=15, probe_timeout_seconds=2, max_concurrency=3)
    health = router.inspect().health
    failed, ok = health.probes["mp_api.search"], health.probes["oqmd_api.search"]
    assert (health.monitor_running, health.interval_seconds, health.max_concurrency) == (True, 15, 3)
    assert (failed.last_run, failed.last_outcome, failed.consecutive_failures) == (clock(), "failed", 1)
    assert (ok.last_outcome, ok.consecutive_failures, ok.stale) == ("ok", 0, False)
    await router.stop_health_monitor()
    assert router.inspect().health.monitor_running is False


@pytest.mark.anyio
async def test_inspect_holds_no_callable_header_or_secret() -> None:
    headers = {"X-API-KEY": SECRET}

    async def invoker(call: object) -> object:
        assert headers
        return RECORDS["mp_api"]

    async def probe() -> bool:
        return bool(headers)

    store = RedisAvailabilityStore(f"redis://default:{SECRET}@127.0.0.1:1/0")
    router = SchemaRouter(clock=FakeClock(), availability_store=store)
    router.register(mp_api(), invoker)
    router.register_health_probe("mp_api", "search", probe)
    router.mark_access_unavailable("mp_api", "search", reason="down")
    dumped = json.dumps(router.inspect().model_dump(mode="json"))
    assert SECRET not in dumped
    assert "<function" not in dumped and " object at 0x" not in dumped
    assert "mp_api.search" in dumped  # the snapshot is not simply empty
