"""invoke_sync works for HTTP routes in scripts and inside a running loop (notebooks)."""

from __future__ import annotations

import anyio
import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter
from tests.servers.materials_api import MaterialsApiServer

REQUEST = PlanRequest(query="band gap", arguments={"formula": "Si"})


def test_invoke_sync_from_a_script_reuses_nothing_bound_to_a_dead_loop(
    materials_api: MaterialsApiServer,
) -> None:
    router = SchemaRouter()
    anyio.run(lambda: router.add_url(materials_api.openapi_url, kind="openapi", name="mp_api", provider="mp"))
    first = router.invoke_sync(REQUEST)
    second = router.invoke_sync(REQUEST)
    assert (
        first.records
        == second.records
        == [{"band_gap": 0.6105, "material_id": "mp-149", "formula_pretty": "Si"}]
    )


@pytest.mark.anyio
async def test_invoke_sync_inside_a_running_loop_and_await_invoke_share_a_router(
    materials_api: MaterialsApiServer,
) -> None:
    async with SchemaRouter() as router:
        await router.add_url(materials_api.openapi_url, kind="openapi", name="mp_api", provider="mp")
        before = await router.invoke(REQUEST)
        in_loop = router.invoke_sync(REQUEST)
        after = await router.invoke(REQUEST)
    assert (
        before.records
        == in_loop.records
        == after.records
        == [{"band_gap": 0.6105, "material_id": "mp-149", "formula_pretty": "Si"}]
    )
