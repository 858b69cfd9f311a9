"""Outages of the real MP API server (through the fault proxy): 503, refused, hanging.

The band-gap question's chain is the MP REST endpoints, then the MP Python client (same
origin: the proxy), then OQMD; MP's OPTIMADE serves no band gap. Counts are asserted, never
seconds: one timeout per run on a hanging origin, no call of a client whose origin cooled.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import pytest
from mp_api.client.core.exceptions import MPRestError

from cookbook.services.materials_project.landscape import MPLandscape
from cookbook.services.materials_project.proxy import Mode
from schemarouter_integrations import PlanRequest, SchemaRouter, ToolResult
from schemarouter_integrations.adapters import openapi_operation_probe
from tests.integration.materials_project.conftest import require_mp_environment

pytestmark = [pytest.mark.integration, pytest.mark.anyio, pytest.mark.timeout(900)]
require_mp_environment()

BuildRouter = Callable[..., Awaitable[SchemaRouter]]
SetFault = Callable[[Mode], None]
MP_PATHS = ("mp_api.", "mp_python.")


def band_gap_of_si(*, preferred: str = "mp_api") -> PlanRequest:
    return PlanRequest(
        query="band gap of Si",
        arguments={"formula": "Si"},
        preferred_tools=[preferred],
        fallback_scope="cross_provider",
    )


def mp_timeouts(result: ToolResult) -> int:
    """Attempts on the MP origin (REST or Python client) that ended in a timeout."""
    return sum(
        1
        for attempt in result.attempts
        if attempt.access_path.startswith(MP_PATHS)
        and not attempt.ok
        and "timed out" in (attempt.error or "")
    )


def mp_timeout_events(result: ToolResult) -> int:
    return sum(
        1
        for event in result.events
        if event.type == "tool.error"
        and getattr(event, "tool", "") in {"mp_api", "mp_python"}
        and "timed out" in getattr(event, "error", "")
    )


@pytest.mark.parametrize("mode", ["503", "refuse", "hang"])
async def test_band_gap_ends_at_oqmd_when_mp_fails(
    mode: Mode, landscape_router: BuildRouter, mp_fault: SetFault
) -> None:
    router = await landscape_router()
    mp_fault(mode)
    result = await router.invoke(band_gap_of_si())
    assert result.provider == "oqmd"
    assert result.tool == "oqmd"
    assert result.route[0].startswith("mp_api."), result.route


async def test_hanging_mp_costs_one_timeout_per_run(
    landscape_router: BuildRouter, mp_fault: SetFault
) -> None:
    router = await landscape_router()
    mp_fault("hang")
    result = await router.invoke(band_gap_of_si())
    assert result.provider == "oqmd"
    assert mp_timeouts(result) == 1, [(a.access_path, a.error) for a in result.attempts]
    assert mp_timeout_events(result) == 1


async def test_python_client_is_not_called_when_the_rest_api_timed_out_on_its_origin(
    mp_landscape: MPLandscape, landscape_router: BuildRouter, mp_fault: SetFault
) -> None:
    router = await landscape_router()
    assert mp_landscape.client is not None
    calls = mp_landscape.client.calls
    mp_fault("hang")
    result = await router.invoke(band_gap_of_si())
    assert result.provider == "oqmd"
    assert "mp_python.summary_search" not in [a.access_path for a in result.attempts]
    assert mp_landscape.client.calls == calls


async def test_python_client_is_skipped_while_its_origin_is_cooled(
    mp_landscape: MPLandscape, landscape_router: BuildRouter, mp_fault: SetFault
) -> None:
    router = await landscape_router()
    mp_fault("hang")
    await router.invoke(band_gap_of_si())
    execution = router.inspect().execution
    assert mp_landscape.mp_url in execution.cooled_origins
    assert "mp_python.summary_search" in execution.unavailable_access_paths
    assert "mp_python.summary_search" in execution.cooldowns
    assert mp_landscape.client is not None
    calls = mp_landscape.client.calls
    mp_fault("pass")  # up again, but the origin is still cooling down: the client is not asked
    result = await router.invoke(band_gap_of_si(preferred="mp_python"))
    assert result.provider == "oqmd"
    assert mp_landscape.client.calls == calls


async def test_health_probe_reopens_the_mp_origin_when_the_server_is_back(
    mp_landscape: MPLandscape, landscape_router: BuildRouter, mp_fault: SetFault
) -> None:
    router = await landscape_router()
    summary = "search_materials_summary__get"
    probe = openapi_operation_probe(router, "mp_api", summary, arguments={"formula": "Si"})
    router.register_health_probe("mp_api", summary, probe)
    mp_fault("hang")
    await router.invoke(band_gap_of_si())
    assert mp_landscape.mp_url in router.inspect().execution.cooled_origins
    mp_fault("pass")
    await router.start_health_monitor(interval_seconds=0.2, probe_timeout_seconds=10)
    try:
        for _ in range(600):  # at most a minute of monitor rounds
            if not router.inspect().execution.cooled_origins:
                break
            await anyio.sleep(0.1)
    finally:
        await router.stop_health_monitor()
    execution = router.inspect().execution
    assert execution.cooled_origins == {}
    assert "mp_python.summary_search" not in execution.unavailable_access_paths
    result = await router.invoke(band_gap_of_si())
    assert result.tool == "mp_api"


async def test_python_client_refused_connection_is_unavailable(
    landscape_router: BuildRouter, mp_fault: SetFault
) -> None:
    """MPRester raises MPRestError while handling requests' ConnectionError: a transport failure."""
    router = await landscape_router(routes=("mp_python", "oqmd"))
    mp_fault("refuse")
    result = await router.invoke(band_gap_of_si(preferred="mp_python"))
    assert result.route == ["mp_python.summary_search", "oqmd.search_structures"]
    assert result.provider == "oqmd"


async def test_python_client_503_is_unavailable_with_its_error_type_declared(
    landscape_router: BuildRouter, mp_fault: SetFault
) -> None:
    """On a 503 MPRester raises its own MPRestError: ``unavailable_on`` names it."""
    python_options: dict[str, Any] = {"unavailable_on": (MPRestError,)}
    router = await landscape_router(routes=("mp_python", "oqmd"), python_options=python_options)
    mp_fault("503")
    result = await router.invoke(band_gap_of_si(preferred="mp_python"))
    assert result.route == ["mp_python.summary_search", "oqmd.search_structures"]
    assert result.provider == "oqmd"


async def test_python_client_error_after_a_503_on_its_origin_is_unavailable(
    landscape_router: BuildRouter, mp_fault: SetFault
) -> None:
    """Without ``unavailable_on``: the REST API met 503 on the same origin in this run first."""
    router = await landscape_router()
    mp_fault("503")
    result = await router.invoke(band_gap_of_si())
    assert result.provider == "oqmd"
    assert all(not attempt.ok for attempt in result.attempts if attempt.access_path.startswith(MP_PATHS))
