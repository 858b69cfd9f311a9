"""Many concurrent runs share one outage: after the first failures the path is skipped."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from schemarouter_integrations import InvocationUnavailableError, ToolCall, ToolResult
from tests.support.execution import CHAIN, fake_router
from tests.support.seed import RECORDS

pytestmark = pytest.mark.anyio

RUNS = 200
WAVE = 10  # runs arrive in waves of ten, one scheduler turn apart


class Outage:
    """An invoker that yields to the loop once, then fails as unavailable."""

    def __init__(self) -> None:
        self.calls = 0

    async def __call__(self, call: ToolCall) -> Any:
        self.calls += 1
        await anyio.lowlevel.checkpoint()
        raise InvocationUnavailableError("connection refused")


class Healthy:
    def __init__(self, tool: str) -> None:
        self.tool = tool

    async def __call__(self, call: ToolCall) -> Any:
        await anyio.lowlevel.checkpoint()
        return RECORDS[self.tool]


async def test_concurrent_runs_stop_calling_a_path_once_it_is_in_cooldown() -> None:
    router, _, _ = fake_router()
    outage = Outage()
    router.bind("mp_api", outage)
    router.bind("mp_optimade", Healthy("mp_optimade"))
    results: list[ToolResult | None] = [None] * RUNS

    async def run(index: int) -> None:
        for _ in range(index // WAVE):
            await anyio.lowlevel.checkpoint()
        results[index] = await router.invoke(CHAIN)

    async with anyio.create_task_group() as tg:
        for index in range(RUNS):
            tg.start_soon(run, index)

    assert all(r is not None and r.tool == "mp_optimade" for r in results)
    assert 1 <= outage.calls <= 2 * WAVE  # far fewer than RUNS
    late = [r for r in results[RUNS // 2 :] if r is not None]
    assert all(r.plan.primary is not None and r.plan.primary.tool == "mp_optimade" for r in late)
    assert all(r.route == ["mp_optimade.search"] for r in late)
    assert router.cooldowns.cooldown_left("mp_api.search") is not None
