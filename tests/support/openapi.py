"""Helpers of the OpenAPI adapter's unit tests: a MockTransport API serving documents, small
document builders, and :func:`build` (the route of a document, nothing registered)."""

from __future__ import annotations

from typing import Any

import httpx

from schemarouter_integrations import ToolCall, ToolSpec
from schemarouter_integrations.adapters._url import build_url_route

DOC_URL = "http://api.test/openapi.json"


class FakeApi:
    """Serves documents by URL and records every request (a MockTransport handler)."""

    def __init__(self, documents: dict[str, Any]) -> None:
        self.documents = documents
        self.requests: list[httpx.Request] = []
        self.answer: Any = {"data": []}

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        url = str(request.url.copy_with(query=None))
        if url in self.documents:
            document = self.documents[url]
            if isinstance(document, (bytes, str)):
                return httpx.Response(200, content=document)
            return httpx.Response(200, json=document)
        if url.endswith((".json", ".yaml")):
            return httpx.Response(404, json={"detail": "no such document"})
        return httpx.Response(200, json=self.answer)

    @property
    def client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=httpx.MockTransport(self))


def document(paths: dict[str, Any], *, version: str = "3.1.0", **extra: Any) -> dict[str, Any]:
    return {"openapi": version, "info": {"title": "Test API", "version": "1"}, "paths": paths, **extra}


def ok(schema: dict[str, Any]) -> dict[str, Any]:
    return {"200": {"description": "ok", "content": {"application/json": {"schema": schema}}}}


def get(operation_id: str, *, parameters: list[Any] | None = None, schema: Any = None) -> dict[str, Any]:
    op: dict[str, Any] = {"operationId": operation_id, "parameters": parameters or []}
    op["responses"] = ok(schema) if schema is not None else {"200": {"description": "ok"}}
    return {"get": op}


def param(name: str, where: str = "query", schema: Any = None, **extra: Any) -> dict[str, Any]:
    return {"name": name, "in": where, "schema": schema or {"type": "string"}, **extra}


async def build(documents: dict[str, Any], url: str = DOC_URL, **kw: Any) -> tuple[ToolSpec, Any, FakeApi]:
    api = FakeApi(documents)
    spec, invoker = await build_url_route(url, kind="openapi", name="mp_api", client=api.client, **kw)
    return spec, invoker, api


def call(
    spec: ToolSpec, endpoint: str, arguments: dict[str, Any], projection: dict[str, str] | None = None
) -> ToolCall:
    ep = spec.endpoint(endpoint)
    assert ep is not None
    return ToolCall(
        tool=spec.name,
        endpoint=endpoint,
        provider=None,
        access_mode=None,
        tool_fingerprint=spec.fingerprint,
        endpoint_fingerprint=ep.fingerprint,
        arguments=arguments,
        selected_fields=(),
        server_projection=projection or {},
        scope="primary",
        read_only=ep.read_only,
        evidence={},
        explanation="",
    )
