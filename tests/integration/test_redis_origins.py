"""Cooled origins are shared through a real redis-server like the marks of access paths."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio
import pytest

from schemarouter_integrations import (
    InvocationUnavailableError,
    PlanRequest,
    SchemaRouter,
)
from schemarouter_integrations.stores import RedisAvailabilityStore
from tests.servers.redis_server import RedisServer
from tests.support.origins import MP, band_gap_tool

pytestmark = [pytest.mark.integration, pytest.mark.redis, pytest.mark.anyio]

REQUEST = PlanRequest(
    query="band gap",
    arguments={"formula": "Si"},
    preferred_tools=["mp_rest"],
    fallback_scope="cross_provider",
)


async def _refused(call: Any) -> Any:
    raise InvocationUnavailableError("GET /materials/summary/: could not connect", transport=True)


async def _answer(call: Any) -> Any:
    return [{"band_gap": 1.1}]


def _router(server: RedisServer, *, mp_down: bool) -> SchemaRouter:
    store = RedisAvailabilityStore(server.url, "origins", peer_grace_seconds=0.0)
    router = SchemaRouter(availability_store=store)
    router.register(band_gap_tool("mp_rest", "materials_project", MP), _refused if mp_down else _answer)
    router.register(band_gap_tool("mp_client", "materials_project", MP), _answer)
    router.register(band_gap_tool("oqmd", "oqmd", "https://oqmd.org"), _answer)
    return router


async def eventually(check: Callable[[], bool], within: float = 10.0) -> None:
    """Wait for background propagation (a liveness bound, not a speed assertion)."""
    with anyio.fail_after(within):
        while not check():  # noqa: ASYNC110 - the state changes in background tasks
            await anyio.sleep(0.01)


async def test_an_origin_cooled_by_one_router_is_cooled_for_another(redis_server: RedisServer) -> None:
    a, b = _router(redis_server, mp_down=True), _router(redis_server, mp_down=False)
    async with a, b:
        await a.invoke(REQUEST)
        await eventually(lambda: MP in b.inspect().execution.cooled_origins)

        plan = b.plan(REQUEST)

        assert plan.primary is not None and plan.primary.tool == "oqmd"
        assert "mp_client.search" in b.inspect().execution.unavailable_access_paths


async def test_reopening_a_path_on_another_router_reopens_the_origin_everywhere(
    redis_server: RedisServer,
) -> None:
    a, b = _router(redis_server, mp_down=True), _router(redis_server, mp_down=False)
    async with a, b:
        await a.invoke(REQUEST)
        await eventually(lambda: MP in b.inspect().execution.cooled_origins)

        b.mark_access_available("mp_client", "search")

        await eventually(lambda: MP not in a.inspect().execution.cooled_origins)
