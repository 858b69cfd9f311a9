"""Coalescing survives the loss of its leader: when the first of several identical callers
is cancelled, the others still share one upstream call."""

from __future__ import annotations

import anyio
import pytest

from schemarouter_integrations import ToolResult
from tests.support.fakes import FakeClock
from tests.unit.test_answer_cache import POLICY, Upstream, ask, make_router

pytestmark = pytest.mark.anyio


async def test_followers_of_a_cancelled_leader_share_one_call() -> None:
    upstream = Upstream()
    upstream.gate = anyio.Event()
    router = make_router(FakeClock(), ("mp", upstream))
    results: list[ToolResult] = []
    leader = anyio.CancelScope()

    async def lead() -> None:
        with leader:
            await router.invoke(ask(POLICY))

    async def follow() -> None:
        results.append(await router.invoke(ask(POLICY)))

    def followers() -> int:
        assert router._answers is not None
        return sum(flight.followers for flight in router._answers.flights._flights.values())

    with anyio.fail_after(10):
        async with anyio.create_task_group() as group:
            group.start_soon(lead)
            await upstream.started.wait()
            for _ in range(5):
                group.start_soon(follow)
            while followers() < 5:  # noqa: ASYNC110 - polled state, no event to wait on
                await anyio.sleep(0.001)
            leader.cancel()
            while upstream.calls < 2:  # noqa: ASYNC110 - polled state, no event to wait on
                await anyio.sleep(0.001)
            for _ in range(20):  # room for any other follower to call as well
                await anyio.lowlevel.checkpoint()
            upstream.gate.set()
    assert len(results) == 5 and all(r.records == [{"formula": "Si", "band_gap": 1.1}] for r in results)
    assert upstream.calls == 2  # the cancelled leader's call and the one the five shared
