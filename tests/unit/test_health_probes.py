"""Trusted probes: only on read-only paths; success reopens, failure cools, stale stops."""

from __future__ import annotations

import logging

import anyio
import pytest

from schemarouter_integrations import PolicyViolationError, RegistrationError, RouterEvent, ToolSpec
from schemarouter_integrations.events import HealthProbeEvent
from tests.support.health import FakeProbe, health_router, start
from tests.support.seed import mp_api

PATH = "mp_api.search"


def recorder(router: object) -> list[RouterEvent]:
    events: list[RouterEvent] = []
    router.subscribe(events.append)  # type: ignore[attr-defined]
    return events


def test_probe_on_a_mutating_endpoint_is_refused() -> None:
    router, _, _ = health_router()
    router.register(mp_api(read_only=False))
    with pytest.raises(PolicyViolationError, match="read_only=True"):
        router.register_health_probe("mp_api", "search", FakeProbe(True))


def test_probe_on_an_unclassified_endpoint_is_refused() -> None:
    router, _, _ = health_router()
    router.register(mp_api(read_only=None))
    with pytest.raises(PolicyViolationError):
        router.register_health_probe("mp_api", "search", FakeProbe(True))


def test_probe_on_an_unknown_path_is_refused() -> None:
    router, _, _ = health_router()
    with pytest.raises(RegistrationError):
        router.register_health_probe("mp_api", "no_such_endpoint", FakeProbe(True))


@pytest.mark.anyio
async def test_successful_probe_clears_the_cooldown_at_once() -> None:
    router, _, _ = health_router()
    router.mark_access_unavailable("mp_api", "search", seconds=300)
    router.register_health_probe("mp_api", "search", FakeProbe(True))
    events = recorder(router)
    await start(router)
    assert router.inspect().execution.unavailable_access_paths == []
    assert [(e.type, getattr(e, "ok", None)) for e in events] == [
        ("health.probe", True),
        ("route.available", None),
    ]
    await router.stop_health_monitor()


@pytest.mark.anyio
async def test_successful_probe_resets_cooldown_growth() -> None:
    router, sleep, _ = health_router()
    router.register_health_probe("mp_api", "search", FakeProbe(False, False, True, False))
    await start(router)
    await sleep.next_round()
    assert router.inspect().execution.cooldowns[PATH] == 60  # second failure: doubled
    await sleep.next_round()
    await sleep.next_round()
    assert router.inspect().execution.cooldowns[PATH] == 30  # after a success: base again
    await router.stop_health_monitor()


@pytest.mark.anyio
async def test_failed_probe_extends_the_cooldown_within_max() -> None:
    router, sleep, _ = health_router()
    router.mark_access_unavailable("mp_api", "search")
    router.register_health_probe("mp_api", "search", FakeProbe(False))
    await start(router)
    seen = [router.inspect().execution.cooldowns[PATH]]
    for _ in range(5):
        await sleep.next_round()
        seen.append(router.inspect().execution.cooldowns[PATH])
    assert seen == [60, 120, 240, 300, 300, 300]
    assert router.inspect().health.probes[PATH].consecutive_failures == 6
    await router.stop_health_monitor()


@pytest.mark.anyio
async def test_failed_probe_on_a_healthy_path_cools_it_before_a_user_pays() -> None:
    router, _, _ = health_router()
    router.register_health_probe("mp_api", "search", FakeProbe(False))
    events = recorder(router)
    await start(router)
    assert router.inspect().execution.cooldowns == {PATH: 30}
    assert [e.type for e in events] == ["health.probe", "route.unavailable"]
    await router.stop_health_monitor()


@pytest.mark.anyio
async def test_probe_that_raises_is_a_failure_and_the_monitor_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="schemarouter_integrations.health")
    router, sleep, _ = health_router()
    router.mark_access_unavailable("mp_api", "search")
    router.register_health_probe("mp_api", "search", FakeProbe(OSError("no route to host"), True))
    await start(router)
    probe = router.inspect().health.probes[PATH]
    assert (probe.last_outcome, probe.last_error) == ("error", "OSError: no route to host")
    assert "health probe of mp_api.search failed" in caplog.text
    await sleep.next_round()
    assert router.inspect().execution.unavailable_access_paths == []
    assert router.inspect().health.monitor_running
    await router.stop_health_monitor()


@pytest.mark.anyio
async def test_probe_returning_a_non_bool_is_a_failure() -> None:
    router, _, _ = health_router()
    router.mark_access_unavailable("mp_api", "search")
    router.register_health_probe("mp_api", "search", FakeProbe("yes"))
    await start(router)
    probe = router.inspect().health.probes[PATH]
    assert (probe.last_outcome, probe.last_error) == ("failed", "probe returned str, not bool")
    assert PATH in router.inspect().execution.unavailable_access_paths
    await router.stop_health_monitor()


@pytest.mark.anyio
async def test_probe_that_times_out_is_a_failure() -> None:
    router, _, _ = health_router()
    finished = anyio.Event()

    async def hanging() -> bool:
        await anyio.sleep_forever()
        return True

    router.register_health_probe("mp_api", "search", hanging)
    router.subscribe(lambda e: finished.set() if e.type == "health.probe" else None)
    await router.start_health_monitor(interval_seconds=30, probe_timeout_seconds=0.01)
    with anyio.fail_after(5):
        await finished.wait()
    assert router.inspect().health.probes[PATH].last_outcome == "timeout"
    assert PATH in router.inspect().execution.unavailable_access_paths
    await router.stop_health_monitor()


@pytest.mark.anyio
async def test_every_probe_run_publishes_a_health_probe_event() -> None:
    router, _, _ = health_router()
    router.register_health_probe("mp_api", "search", FakeProbe(True))
    router.register_health_probe("oqmd_api", "search", FakeProbe(False))
    events = recorder(router)
    await start(router)
    probes = sorted((e.tool, e.ok) for e in events if isinstance(e, HealthProbeEvent))
    assert probes == [("mp_api", True), ("oqmd_api", False)]
    failed = next(e for e in events if isinstance(e, HealthProbeEvent) and not e.ok)
    assert (failed.error, failed.cooldown_seconds, failed.provider) == ("probe returned False", 30, "oqmd")
    await router.stop_health_monitor()


@pytest.mark.anyio
async def test_probe_goes_stale_and_stops_when_the_contract_changes() -> None:
    router, sleep, _ = health_router()
    probe = FakeProbe(True)
    router.register_health_probe("mp_api", "search", probe)
    await start(router)
    router.register(ToolSpec.model_validate({**mp_api().model_dump(), "description": "a new contract"}))
    await sleep.next_round()
    snapshot = router.inspect().health.probes[PATH]
    assert probe.calls == 1
    assert snapshot.stale
    assert snapshot.stale_reason is not None and "contract changed" in snapshot.stale_reason
    await router.stop_health_monitor()


@pytest.mark.anyio
async def test_probe_goes_stale_when_the_endpoint_stops_being_read_only() -> None:
    router, sleep, _ = health_router()
    probe = FakeProbe(True)
    router.register_health_probe("mp_api", "search", probe)
    await start(router)
    router.register(mp_api(read_only=False))
    await sleep.next_round()
    assert probe.calls == 1
    assert router.inspect().health.probes[PATH].stale
    await router.stop_health_monitor()


@pytest.mark.anyio
async def test_registering_the_probe_again_makes_it_fresh() -> None:
    router, _, _ = health_router()
    probe = FakeProbe(True)
    router.register_health_probe("mp_api", "search", probe)
    router.register(ToolSpec.model_validate({**mp_api().model_dump(), "description": "a new contract"}))
    router.register_health_probe("mp_api", "search", probe)
    await start(router)
    assert probe.calls == 1
    assert not router.inspect().health.probes[PATH].stale
    await router.stop_health_monitor()


@pytest.mark.anyio
async def test_probe_of_a_removed_tool_is_stale() -> None:
    router, _, _ = health_router()
    probe = FakeProbe(True)
    router.register_health_probe("mp_api", "search", probe)
    router.remove_tool("mp_api")
    await start(router)
    assert probe.calls == 0
    assert router.inspect().health.probes[PATH].stale_reason == "the tool was removed"
    await router.stop_health_monitor()
