"""Pending routes: retried with a growing, bounded, jittered delay while the router is entered,
registered (and gone from ``inspect().pending``) once an attempt succeeds. Fake clock and sleep."""

from __future__ import annotations

import random

import anyio
import pytest

from schemarouter_integrations import PlanRequest, RegistrationError, SchemaRouter
from schemarouter_integrations._health.pending import MAX_DELAY_SECONDS, retry_delay
from tests.support.fakes import FakeClock
from tests.support.health import ManualSleep

pytestmark = pytest.mark.anyio


def lab_search(formula: str) -> list[dict[str, object]]:
    return [{"band_gap": 1.1, "formula": formula}]


class Source:
    """An attempt that fails while the source is down, then registers route ``lab``."""

    def __init__(self, router: SchemaRouter, *, failures: int) -> None:
        self.router = router
        self.failures = failures
        self.calls = 0

    async def __call__(self) -> None:
        self.calls += 1
        if self.calls <= self.failures:
            raise RegistrationError(f"could not read the document (attempt {self.calls})")
        self.router.add_callable(lab_search, name="lab", read_only=True, fields=["band_gap", "formula"])


def pending_router(failures: int = 0) -> tuple[SchemaRouter, ManualSleep, Source]:
    clock = FakeClock()
    sleep = ManualSleep(clock)
    router = SchemaRouter(clock=clock, sleep=sleep, rng=random.Random(7))
    source = Source(router, failures=failures)
    router._pending.add("lab", "could not read the document (at start)", source)
    return router, sleep, source


def test_retry_delays_double_from_one_second_up_to_a_minute_with_jitter() -> None:
    rng = random.Random(3)
    steps = [1, 2, 4, 8, 16, 32, 60, 60, 60]
    delays = [retry_delay(retry, rng) for retry in range(len(steps))]
    assert all(step / 2 <= delay <= step for delay, step in zip(delays, steps, strict=True))
    assert retry_delay(10_000, rng) <= MAX_DELAY_SECONDS


def test_the_jitter_spreads_the_delays() -> None:
    rng = random.Random(5)
    assert len({retry_delay(0, rng) for _ in range(20)}) > 1


async def test_inspect_names_the_pending_route_and_its_reason() -> None:
    router, _, _ = pending_router()
    assert router.inspect().pending == {"lab": "could not read the document (at start)"}


async def test_nothing_is_retried_before_the_router_is_entered() -> None:
    _, sleep, source = pending_router()
    await anyio.wait_all_tasks_blocked()
    assert (source.calls, sleep.requested) == (0, [])


async def test_a_pending_route_registers_after_the_first_delay() -> None:
    router, sleep, source = pending_router()
    async with router:
        await anyio.wait_all_tasks_blocked()
        assert len(sleep.requested) == 1 and 0.5 <= sleep.requested[0] <= 1.0
        await sleep.next_round()
        assert source.calls == 1
        assert router.inspect().pending == {}
        result = await router.invoke(PlanRequest(query="band gap", arguments={"formula": "Si"}))
    assert result.tool == "lab"


async def test_a_failed_retry_keeps_the_route_pending_with_the_new_reason_and_a_longer_delay() -> None:
    router, sleep, source = pending_router(failures=2)
    async with router:
        await anyio.wait_all_tasks_blocked()
        await sleep.next_round()
        assert router.inspect().pending == {"lab": "could not read the document (attempt 1)"}
        await sleep.next_round()
        await sleep.next_round()
        assert source.calls == 3 and router.inspect().pending == {}
    first, second, third = sleep.requested
    assert 0.5 <= first <= 1.0 and 1.0 <= second <= 2.0 and 2.0 <= third <= 4.0


async def test_closing_the_router_stops_the_retries() -> None:
    router, sleep, source = pending_router(failures=100)
    async with router:
        await anyio.wait_all_tasks_blocked()
        await sleep.next_round()
    running = [t.name for t in anyio.get_running_tasks() if (t.name or "").startswith("schemarouter-")]
    assert running == [] and source.calls == 1
    assert list(router.inspect().pending) == ["lab"]


async def test_an_unexpected_error_keeps_the_route_pending_with_its_type() -> None:
    clock = FakeClock()
    sleep = ManualSleep(clock)
    router = SchemaRouter(clock=clock, sleep=sleep)

    async def broken() -> None:
        raise KeyError("version")

    router._pending.add("lab", "at start", broken, lambda exc: f"{type(exc).__name__}: {exc}")
    async with router:
        await anyio.wait_all_tasks_blocked()
        await sleep.next_round()
        assert router.inspect().pending == {"lab": "KeyError: 'version'"}
