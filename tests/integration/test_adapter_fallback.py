"""Real loopback HTTP: the FastAPI service (by its /openapi.json) falls back to OPTIMADE.

The OPTIMADE reference server (provider prefix ``oqmd``) answers a band-gap question through
``_oqmd_band_gap``; the result carries canonical names only.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from schemarouter_integrations import (
    NonRetryableInvocationError,
    PlanRequest,
    RetryPolicy,
    SchemaRouter,
    ServerProjectionSpec,
    ToolResult,
)
from tests.servers.materials_api import MaterialsApiServer
from tests.servers.optimade_server import OptimadeServer

pytestmark = [pytest.mark.integration, pytest.mark.anyio]

BAND_GAP = PlanRequest(
    query="Si band gap",
    arguments={"formula": "Si"},
    preferred_tools=["mp_api"],
    fallback_scope="cross_provider",
)
OQMD_SI_GAP = 0.615


class Routes:
    """A router with ``mp_api`` (OpenAPI) and ``oqmd_optimade`` (OPTIMADE), and a request log."""

    def __init__(self, router: SchemaRouter) -> None:
        self.router = router
        self.sent: list[httpx.Request] = []

    async def _record(self, request: httpx.Request) -> None:
        self.sent.append(request)

    async def register(self, mp: MaterialsApiServer, oqmd: OptimadeServer, **mp_options: Any) -> Routes:
        self.router.http_client.event_hooks["request"].append(self._record)
        mp_options.setdefault("timeout_seconds", 2.0)
        await self.router.add_url(
            mp.openapi_url,
            kind="openapi",
            name="mp_api",
            provider="materials_project",
            access_mode="openapi",
            projection=ServerProjectionSpec(parameter="_fields"),
            **mp_options,
        )
        await self.router.add_url(
            oqmd.url, kind="optimade", name="oqmd_optimade", provider="oqmd", access_mode="optimade"
        )
        return self

    def to(self, server_url: str, path_prefix: str = "/") -> list[httpx.Request]:
        origin = httpx.URL(server_url)
        return [r for r in self.sent if r.url.port == origin.port and r.url.path.startswith(path_prefix)]


def assert_answered_by_oqmd(result: ToolResult, routes: Routes, oqmd: OptimadeServer) -> None:
    assert result.route == ["mp_api.search", "oqmd_optimade.search_structures"]
    assert (result.tool, result.provider, result.access_mode) == ("oqmd_optimade", "oqmd", "optimade")
    # identity fields come with the answer, so records can be told apart
    assert result.records == [
        {"band_gap": pytest.approx(OQMD_SI_GAP), "chemical_formula_reduced": "Si", "id": "4486"}
    ]
    searches = routes.to(oqmd.url, "/v1/structures")
    assert len(searches) == 1
    assert searches[0].url.params["response_fields"] == "_oqmd_band_gap,chemical_formula_reduced,id"
    assert searches[0].url.params["filter"] == 'chemical_formula_reduced="Si"'
    fallback = next(e for e in result.events if e.type == "tool.fallback")
    assert (fallback.scope, fallback.reason, fallback.same_provider) == (  # type: ignore[attr-defined]
        "cross_provider",
        "unavailable",
        False,
    )


async def test_the_healthy_primary_answers_with_its_projection_pushed_upstream(
    router: SchemaRouter, materials_api: MaterialsApiServer, optimade_server: OptimadeServer
) -> None:
    routes = await Routes(router).register(materials_api, optimade_server)
    result = await router.invoke(BAND_GAP)
    assert result.route == ["mp_api.search"]
    assert result.records == [
        {"band_gap": pytest.approx(0.6105), "material_id": "mp-149", "formula_pretty": "Si"}
    ]  # + identity, label
    [search] = materials_api.requests.to("/materials/summary")
    assert search.fields == ["band_gap", "material_id", "formula_pretty"]
    assert search.query["formula"] == "Si"
    assert routes.to(optimade_server.url) == routes.to(optimade_server.url, "/v1/info")


async def test_503_falls_back_to_the_optimade_band_gap(
    router: SchemaRouter, materials_api: MaterialsApiServer, optimade_server: OptimadeServer
) -> None:
    routes = await Routes(router).register(materials_api, optimade_server)
    materials_api.faults.always("503")
    result = await router.invoke(BAND_GAP)
    assert_answered_by_oqmd(result, routes, optimade_server)
    assert router.inspect().execution.unavailable_access_paths == ["mp_api.search"]


async def test_a_hang_past_the_route_timeout_falls_back(
    router: SchemaRouter, materials_api: MaterialsApiServer, optimade_server: OptimadeServer
) -> None:
    routes = await Routes(router).register(materials_api, optimade_server, timeout_seconds=0.3)
    materials_api.faults.always("hang")
    result = await router.invoke(BAND_GAP)
    assert_answered_by_oqmd(result, routes, optimade_server)
    error = next(e for e in result.events if e.type == "tool.error")
    assert "timed out" in error.error  # type: ignore[attr-defined]


async def test_connection_refused_falls_back(
    router: SchemaRouter,
    materials_api: MaterialsApiServer,
    optimade_server: OptimadeServer,
    refused_url: str,
) -> None:
    routes = await Routes(router).register(materials_api, optimade_server, base_url=refused_url)
    result = await router.invoke(BAND_GAP)
    assert_answered_by_oqmd(result, routes, optimade_server)
    assert materials_api.requests.to("/materials") == []


async def test_429_is_retried_then_falls_back(
    router: SchemaRouter, materials_api: MaterialsApiServer, optimade_server: OptimadeServer
) -> None:
    retry = RetryPolicy(max_attempts=2, backoff_seconds=0.0, max_backoff_seconds=0.01)
    routes = await Routes(router).register(materials_api, optimade_server, retry=retry)
    materials_api.faults.retry_after = "0"
    materials_api.faults.always("429")
    result = await router.invoke(BAND_GAP)
    assert_answered_by_oqmd(result, routes, optimade_server)
    assert [r.status for r in materials_api.requests.to("/materials")] == [429, 429]
    assert [e.type for e in result.events].count("tool.retry") == 1


async def test_429_asking_for_a_long_wait_cools_down_at_once_for_that_long(
    router: SchemaRouter, materials_api: MaterialsApiServer, optimade_server: OptimadeServer
) -> None:
    retry = RetryPolicy(max_attempts=3, backoff_seconds=0.0, max_backoff_seconds=1.0)
    routes = await Routes(router).register(materials_api, optimade_server, retry=retry)
    materials_api.faults.retry_after = "120"
    materials_api.faults.always("429")
    result = await router.invoke(BAND_GAP)
    assert_answered_by_oqmd(result, routes, optimade_server)
    assert [r.status for r in materials_api.requests.to("/materials")] == [429]
    assert router.inspect().execution.cooldowns["mp_api.search"] >= 119.0


@pytest.mark.parametrize(
    ("fault", "status"), [("404", 404), ("401", 401), ("malformed_json", None), ("html", None)]
)
async def test_deterministic_failures_end_the_run_without_fallback(
    router: SchemaRouter,
    materials_api: MaterialsApiServer,
    optimade_server: OptimadeServer,
    fault: str,
    status: int | None,
) -> None:
    routes = await Routes(router).register(materials_api, optimade_server)
    materials_api.faults.always(fault)
    with pytest.raises(NonRetryableInvocationError) as caught:
        await router.invoke(BAND_GAP)
    assert caught.value.status_code == status
    assert routes.to(optimade_server.url, "/v1/structures") == []
    assert router.inspect().execution.unavailable_access_paths == []


async def test_an_oversized_body_is_non_retryable(
    materials_api: MaterialsApiServer, optimade_server: OptimadeServer
) -> None:
    async with SchemaRouter(max_response_bytes=100_000) as router:
        routes = await Routes(router).register(materials_api, optimade_server)
        materials_api.faults.always("oversized")
        with pytest.raises(NonRetryableInvocationError, match="larger than the limit of 100000 bytes"):
            await router.invoke(BAND_GAP)
        assert routes.to(optimade_server.url, "/v1/structures") == []
