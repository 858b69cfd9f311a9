"""Trusted invokers over real HTTP for the MP-like loopback API (``tests/servers/materials_api.py``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from schemarouter_integrations import (
    InvocationUnavailableError,
    SchemaRouter,
    ServerProjectionSpec,
    ToolCall,
    ToolSpec,
)
from tests.support.seed import band_gap, endpoint, formula, mp_api

WIRE_ARGUMENTS = {"limit": "_limit"}


def http_search(base_url: str) -> Callable[[ToolCall], Awaitable[Any]]:
    """A trusted invoker for ``GET /materials/summary/`` of the MP-like API."""

    async def invoke(call: ToolCall) -> Any:
        params = {WIRE_ARGUMENTS.get(k, k): v for k, v in call.arguments.items()}
        params.update(call.server_projection)
        try:
            async with httpx.AsyncClient(base_url=base_url, timeout=5.0) as client:
                response = await client.get("/materials/summary/", params=params)
        except httpx.TransportError as exc:
            raise InvocationUnavailableError(f"GET /materials/summary/: {type(exc).__name__}") from exc
        if response.status_code == 429 or response.status_code >= 500:
            raise InvocationUnavailableError(f"GET /materials/summary/: HTTP {response.status_code}")
        response.raise_for_status()
        return response.json()

    return invoke


def mp_mirror() -> ToolSpec:
    """A second REST access path of the same provider (an institutional MP mirror)."""
    projection = ServerProjectionSpec(parameter="_fields", field_map={"formula": "formula_pretty"})
    return ToolSpec(
        name="mp_mirror",
        provider="materials_project",
        access_mode="openapi",
        endpoints=[endpoint(fields=[band_gap(), formula("formula_pretty")], projection=projection)],
    )


def http_router(primary_url: str, mirror_url: str) -> SchemaRouter:
    """mp_api at *primary_url*, then mp_mirror at *mirror_url*, both over real HTTP."""
    router = SchemaRouter()
    router.register(mp_api(), http_search(primary_url))
    router.register(mp_mirror(), http_search(mirror_url))
    return router
