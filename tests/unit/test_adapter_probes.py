"""Explicit health-probe helpers (httpx.MockTransport, no sockets)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from schemarouter_integrations import PolicyViolationError, RegistrationError, SchemaRouter
from schemarouter_integrations.adapters import openapi_operation_probe, optimade_info_probe
from schemarouter_integrations.adapters._url import build_url_route

pytestmark = pytest.mark.anyio

INFO = {"data": {"id": "/", "type": "info", "attributes": {"api_version": "1.2.0"}}}


def client(handler: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.MockTransport(handler))


async def test_optimade_info_probe_is_true_when_info_answers() -> None:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(200, json=INFO)

    assert await optimade_info_probe(client(handler), "http://optimade.test")() is True
    assert seen == ["http://optimade.test/v1/info"]


async def test_optimade_info_probe_is_false_when_unavailable() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    assert await optimade_info_probe(client(handler), "http://optimade.test/v1")() is False


async def test_optimade_info_probe_is_false_for_a_non_info_answer() -> None:
    probe = optimade_info_probe(client(lambda r: httpx.Response(200, json=[1])), "http://optimade.test")
    assert await probe() is False


OPENAPI = {
    "openapi": "3.1.0",
    "info": {"title": "t", "version": "1"},
    "paths": {
        "/heartbeat": {"get": {"operationId": "heartbeat", "responses": {}}},
        "/materials/": {"post": {"operationId": "create", "responses": {}}},
    },
}


async def router_with_openapi(status: int) -> tuple[SchemaRouter, list[httpx.Request]]:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.url.path == "/openapi.json":
            return httpx.Response(200, json=OPENAPI)
        return httpx.Response(status, json={"status": "OK"})

    router = SchemaRouter()
    spec, invoker = await build_url_route(
        "http://api.test/openapi.json",
        kind="openapi",
        name="mp_api",
        client=client(handler),
        headers={"x-api-key": "k-123"},
    )
    router.register(spec, invoker)
    return router, seen


async def test_openapi_operation_probe_calls_the_chosen_operation_with_the_route_headers() -> None:
    router, seen = await router_with_openapi(200)
    assert await openapi_operation_probe(router, "mp_api", "heartbeat")() is True
    assert seen[-1].url.path == "/heartbeat"
    assert seen[-1].headers["x-api-key"] == "k-123"


async def test_openapi_operation_probe_is_false_when_the_operation_fails() -> None:
    router, _ = await router_with_openapi(503)
    assert await openapi_operation_probe(router, "mp_api", "heartbeat")() is False


async def test_openapi_operation_probe_refuses_a_mutating_operation() -> None:
    router, _ = await router_with_openapi(200)
    with pytest.raises(PolicyViolationError):
        openapi_operation_probe(router, "mp_api", "create")


async def test_openapi_operation_probe_needs_an_openapi_binding() -> None:
    router = SchemaRouter()
    with pytest.raises(RegistrationError, match="not bound to an OpenAPI invoker"):
        openapi_operation_probe(router, "mp_api", "heartbeat")
