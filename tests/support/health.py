"""Health-monitor helpers: a manually stepped interval sleep, scripted probes, a seeded router."""

from __future__ import annotations

import anyio

from schemarouter_integrations import CooldownPolicy, SchemaRouter
from tests.support.fakes import FakeClock
from tests.support.seed import seed_router


class ManualSleep:
    """The monitor's interval sleep: parks until the test lets the next round run."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.requested: list[float] = []
        self._gate: anyio.Event | None = None

    async def __call__(self, seconds: float) -> None:
        self.requested.append(seconds)
        self._gate = anyio.Event()
        await self._gate.wait()
        self.clock.advance(seconds)

    async def next_round(self) -> None:
        assert self._gate is not None, "the monitor is not waiting for its next round"
        self._gate.set()
        await anyio.wait_all_tasks_blocked()


class FakeProbe:
    """Answers with the given results in turn (the last one repeats); exceptions are raised."""

    def __init__(self, *results: object) -> None:
        self.results = list(results) or [True]
        self.calls = 0

    async def __call__(self) -> object:
        self.calls += 1
        result = self.results[min(self.calls, len(self.results)) - 1]
        if isinstance(result, BaseException):
            raise result
        return result


def health_router() -> tuple[SchemaRouter, ManualSleep, FakeClock]:
    clock = FakeClock()
    sleep = ManualSleep(clock)
    router, _ = seed_router(
        SchemaRouter(cooldown=CooldownPolicy(base_seconds=30, max_seconds=300), clock=clock, sleep=sleep)
    )
    return router, sleep, clock


async def start(router: SchemaRouter, **settings: float) -> None:
    """Start the monitor and let its first round finish."""
    await router.start_health_monitor(**{"interval_seconds": 30, "probe_timeout_seconds": 5, **settings})
    await anyio.wait_all_tasks_blocked()
