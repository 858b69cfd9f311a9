"""A rate limit holds after the event loop stalls: callers that wake late for their turn
check again instead of all going at once, so the bound holds in every window of the times
the calls really started."""

from __future__ import annotations

import time
from typing import Any

import anyio
import pytest

from schemarouter_integrations import PlanRequest, RateLimit, SchemaRouter

pytestmark = pytest.mark.anyio

PER_SECOND, BURST, WINDOW = 50.0, 4, 0.1


def most_in_any_window(starts: list[float], window: float) -> int:
    return max(sum(1 for t in starts if start <= t <= start + window) for start in starts)


async def test_callers_waiting_through_a_stall_keep_the_bound_in_every_window() -> None:
    starts: list[float] = []

    async def band_gap(formula: str) -> list[dict[str, Any]]:
        starts.append(time.monotonic())  # when the call really started
        return [{"formula": formula, "band_gap": 1.1}]

    router = SchemaRouter()
    limit = RateLimit(PER_SECOND, burst=BURST, max_wait_seconds=60)
    router.add_callable(band_gap, name="mp", read_only=True, fields=["band_gap", "formula"], rate_limit=limit)

    async def one(index: int) -> None:
        await router.invoke(PlanRequest(query="band gap", arguments={"formula": f"X{index}"}))

    async with anyio.create_task_group() as group:
        for index in range(30):
            group.start_soon(one, index)
        await anyio.sleep(0.05)  # every caller holds a turn and sleeps until then
        time.sleep(0.3)  # noqa: ASYNC251 - the event loop stalls (a blocking call elsewhere)
    assert len(starts) == 30
    assert most_in_any_window(starts, WINDOW) <= BURST + PER_SECOND * WINDOW, sorted(starts)
    assert router.inspect().rate_limits["limits"]["route:mp"]["rechecked"] >= 1
