"""The sync entry point works with and without a running event loop."""

from __future__ import annotations

import asyncio
import threading

import pytest

from schemarouter_integrations import NoRouteError
from schemarouter_integrations._sync import loop_running, run_sync
from tests.support.execution import CHAIN, DOWN, fake_router


def test_invoke_sync_without_a_running_loop() -> None:
    router, _, _ = fake_router(down=DOWN)

    result = router.invoke_sync(CHAIN)

    assert (result.tool, result.endpoint) == ("oqmd_api", "search")


@pytest.mark.anyio
async def test_invoke_sync_inside_a_running_loop() -> None:
    router, _, _ = fake_router(down=DOWN)

    result = router.invoke_sync(CHAIN)  # a notebook cell calling sync code inside its loop

    assert (result.tool, result.endpoint) == ("oqmd_api", "search")


@pytest.mark.anyio
async def test_invoke_sync_raises_the_run_error_inside_a_running_loop() -> None:
    router, _, _ = fake_router()
    for tool in ("mp_api", "mp_optimade", "mp_python", "oqmd_api"):
        router.mark_access_unavailable(tool, "search")

    with pytest.raises(NoRouteError):
        router.invoke_sync(CHAIN)


def test_run_sync_runs_in_the_calling_thread_without_a_loop() -> None:
    async def where() -> str:
        return threading.current_thread().name

    assert run_sync(where) == threading.current_thread().name


def test_run_sync_uses_a_worker_thread_inside_a_running_loop() -> None:
    async def where() -> str:
        return threading.current_thread().name

    async def notebook_cell() -> str:
        assert loop_running()
        return run_sync(where)

    assert asyncio.run(notebook_cell()).startswith("schemarouter-sync")
    assert not loop_running()


def test_invoke_sync_inside_a_running_trio_loop() -> None:
    trio = pytest.importorskip("trio")
    router, _, _ = fake_router(down=DOWN)

    async def cell() -> str:
        assert loop_running()
        return router.invoke_sync(CHAIN).tool

    assert trio.run(cell) == "oqmd_api"
