"""A real HTTP client's outage over real sockets: the chain goes on to the next provider."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import requests

from schemarouter_integrations import PlanRequest, SchemaRouter
from tests.servers.fault_server import FaultServer, Hang, Status

pytestmark = [pytest.mark.integration, pytest.mark.anyio]

REQUEST = PlanRequest(
    query="band gap",
    arguments={"formula": "Si"},
    preferred_tools=["client"],
    fallback_scope="cross_provider",
)


def _router(fn: Any, origin: str) -> SchemaRouter:
    router = SchemaRouter()
    router.add_callable(fn, name="client", provider="mp", read_only=True, fields=["band_gap"], origin=origin)

    def other_provider(formula: str) -> list[dict[str, Any]]:
        return [{"band_gap": 1.1}]

    router.add_callable(other_provider, name="oqmd", provider="oqmd", read_only=True, fields=["band_gap"])
    return router


def _requests_client(base: str) -> Any:
    def client(formula: str) -> list[dict[str, Any]]:
        response = requests.get(f"{base}/materials", params={"formula": formula}, timeout=0.5)
        response.raise_for_status()
        return list(response.json()["data"])

    return client


async def test_requests_refused_by_a_dead_server_falls_back(refused_url: str) -> None:
    router = _router(_requests_client(refused_url), refused_url)

    result = await router.invoke(REQUEST)

    assert result.tool == "oqmd"
    assert list(router.inspect().execution.cooled_origins) == [str(httpx.URL(refused_url)).rstrip("/")]


async def test_requests_timing_out_on_a_hanging_server_falls_back(fault_server: FaultServer) -> None:
    url = fault_server.route("client-hang", Hang()).rsplit("/", 1)[0]

    result = await _router(_requests_client(url), url).invoke(REQUEST)

    assert result.tool == "oqmd"
    (attempt,) = [a for a in result.attempts if a.access_path.startswith("client.")]
    assert "Timeout" in (attempt.error or "")


async def test_requests_raising_for_a_503_falls_back_without_cooling_the_origin(
    fault_server: FaultServer,
) -> None:
    url = fault_server.route("client-503", Status(503)).rsplit("/", 1)[0]
    router = _router(_requests_client(url), url)

    result = await router.invoke(REQUEST)

    assert result.tool == "oqmd"
    assert router.inspect().execution.cooled_origins == {}
