"""The health monitor's lifecycle: probes at once then every interval, bounded, stoppable."""

from __future__ import annotations

import math

import anyio
import pytest

from schemarouter_integrations.errors import ConfigurationError, LifecycleError
from tests.support.health import FakeProbe, health_router, start
from tests.support.seed import SEED_TOOLS


def background_tasks() -> list[str]:
    return [t.name for t in anyio.get_running_tasks() if t.name and t.name.startswith("schemarouter-")]


@pytest.mark.anyio
async def test_monitor_probes_at_once_then_every_interval() -> None:
    router, sleep, _ = health_router()
    probe = FakeProbe(True)
    router.register_health_probe("mp_api", "search", probe)
    await start(router, interval_seconds=30)
    assert probe.calls == 1
    assert sleep.requested == [30]
    await sleep.next_round()
    assert probe.calls == 2
    await router.stop_health_monitor()


@pytest.mark.anyio
async def test_starting_the_monitor_twice_raises() -> None:
    router, _, _ = health_router()
    await start(router)
    with pytest.raises(LifecycleError, match="already running"):
        await router.start_health_monitor()
    assert router.inspect().health.monitor_running
    await router.stop_health_monitor()


@pytest.mark.anyio
async def test_stopping_the_monitor_ends_its_tasks() -> None:
    router, _, _ = health_router()
    router.register_health_probe("mp_api", "search", FakeProbe(True))
    await start(router)
    assert "schemarouter-health-monitor" in background_tasks()
    await router.stop_health_monitor()
    assert background_tasks() == []
    assert not router.inspect().health.monitor_running


@pytest.mark.anyio
async def test_stop_cancels_a_probe_in_flight() -> None:
    router, _, _ = health_router()

    async def hanging() -> bool:
        await anyio.sleep_forever()
        return True

    router.register_health_probe("mp_api", "search", hanging)
    await start(router, probe_timeout_seconds=3600)
    assert "schemarouter-probe:mp_api.search" in background_tasks()
    await router.stop_health_monitor()
    assert background_tasks() == []


@pytest.mark.anyio
async def test_leaving_async_with_router_stops_the_monitor() -> None:
    router, _, _ = health_router()
    router.register_health_probe("mp_api", "search", FakeProbe(True))
    async with router:
        await start(router)
        assert router.inspect().health.monitor_running
    assert not router.inspect().health.monitor_running
    assert background_tasks() == []


@pytest.mark.anyio
async def test_monitor_starts_again_after_a_stop() -> None:
    router, _, _ = health_router()
    probe = FakeProbe(True)
    router.register_health_probe("mp_api", "search", probe)
    await start(router)
    await router.stop_health_monitor()
    await start(router, interval_seconds=5)
    assert probe.calls == 2
    assert router.inspect().health.interval_seconds == 5
    await router.stop_health_monitor()


@pytest.mark.anyio
async def test_stopping_a_monitor_that_is_not_running_is_a_no_op() -> None:
    router, _, _ = health_router()
    await router.stop_health_monitor()
    assert not router.inspect().health.monitor_running


@pytest.mark.anyio
@pytest.mark.parametrize(
    "settings",
    [
        {"interval_seconds": 0},
        {"interval_seconds": math.nan},
        {"probe_timeout_seconds": -1},
        {"probe_timeout_seconds": "5"},
        {"max_concurrency": 0},
        {"max_concurrency": 2.5},
    ],
)
async def test_invalid_monitor_settings_are_refused(settings: dict[str, float]) -> None:
    router, _, _ = health_router()
    with pytest.raises(ConfigurationError):
        await router.start_health_monitor(**settings)  # type: ignore[arg-type]
    assert not router.inspect().health.monitor_running


@pytest.mark.anyio
async def test_monitor_bounds_probe_concurrency() -> None:
    router, _, _ = health_router()
    running, peak = 0, 0
    release = anyio.Event()

    async def gated() -> bool:
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        await release.wait()
        running -= 1
        return True

    for make in SEED_TOOLS:
        router.register_health_probe(make().name, "search", gated)
    await start(router, max_concurrency=2, probe_timeout_seconds=3600)
    assert (running, peak) == (2, 2)
    release.set()
    await anyio.wait_all_tasks_blocked()
    assert (running, peak) == (0, 2)
    assert all(p.runs == 1 for p in router.inspect().health.probes.values())
    await router.stop_health_monitor()


@pytest.mark.anyio
async def test_routers_and_monitors_can_be_left_in_any_order() -> None:
    first, _, _ = health_router()
    second, _, _ = health_router()
    async with first:
        async with second:
            await start(first)  # runs in first's task group, not in this task's scopes
        assert first.inspect().health.monitor_running
    assert not first.inspect().health.monitor_running
    assert background_tasks() == []


@pytest.mark.anyio
async def test_monitor_inside_async_with_router_can_be_stopped_from_another_task() -> None:
    router, _, _ = health_router()
    async with router:
        await start(router)
        async with anyio.create_task_group() as group:
            group.start_soon(router.stop_health_monitor)
        assert not router.inspect().health.monitor_running
        assert background_tasks() == ["schemarouter-store"]
