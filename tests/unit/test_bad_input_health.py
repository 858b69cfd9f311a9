"""Misbehaving probes, sinks and endless outages never break the router or its health view."""

from __future__ import annotations

import threading

import pytest

from schemarouter_integrations import CooldownPolicy, RegistrationError, SchemaRouter
from schemarouter_integrations._health.probes import run_probe
from schemarouter_integrations.errors import InvalidCallbackError
from tests.support.fakes import FakeClock
from tests.support.seed import seed_router

PATH = "mp_api.search"


def test_a_path_failing_for_days_keeps_a_bounded_cooldown() -> None:
    clock = FakeClock()
    router, _ = seed_router(
        SchemaRouter(cooldown=CooldownPolicy(base_seconds=30, max_seconds=300), clock=clock)
    )
    for _ in range(1100):  # a failed probe every 5 minutes for almost four days
        clock.advance(301)
        mark = router.cooldowns.record_failure(PATH, reason="probe failed")
    assert mark.until - clock() == 300
    assert mark.failures == 1100


@pytest.mark.anyio
async def test_a_sync_probe_that_hangs_times_out() -> None:
    release = threading.Event()

    def hanging() -> bool:
        release.wait(2)
        return True

    try:
        outcome = await run_probe(hanging, timeout_seconds=0.05)
    finally:
        release.set()
    assert outcome.verdict == "timeout"


def test_a_probe_that_needs_arguments_is_refused_when_registered() -> None:
    router, _ = seed_router()

    async def probe(url: str) -> bool:
        return True

    with pytest.raises(RegistrationError, match="without arguments"):
        router.register_health_probe("mp_api", "search", probe)  # type: ignore[arg-type]
    assert router.inspect().health.probes == {}


def test_an_event_sink_that_cannot_take_an_event_is_refused_when_subscribed() -> None:
    router, _ = seed_router()

    def sink() -> None:
        pass

    with pytest.raises(InvalidCallbackError, match="an event sink takes one RouterEvent"):
        router.subscribe(sink)  # type: ignore[arg-type]
