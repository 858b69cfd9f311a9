"""An argument too long for any request is refused as the model's to fix, before anything
is sent: a ``SchemaValidationError`` about the arguments, never a crash."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter, SchemaValidationError
from schemarouter_integrations.adapters._url import build_url_route

pytestmark = pytest.mark.anyio

LONG = "Si" * 40_000
RECORDS = {
    "type": "object",
    "properties": {
        "data": {"type": "array", "items": {"type": "object", "properties": {"band_gap": {"type": "number"}}}}
    },
}


def document(path: str, where: str) -> dict[str, Any]:
    parameter = {"name": "formula", "in": where, "required": True, "schema": {"type": "string"}}
    responses = {"200": {"description": "ok", "content": {"application/json": {"schema": RECORDS}}}}
    return {
        "openapi": "3.0.3",
        "info": {"title": "gaps", "version": "1"},
        "paths": {path: {"get": {"operationId": "gaps", "parameters": [parameter], "responses": responses}}},
    }


@pytest.mark.parametrize(("path", "where"), [("/gaps", "query"), ("/gaps/{formula}", "path")])
async def test_an_argument_too_long_for_a_url_is_a_schema_validation_error_and_nothing_is_sent(
    path: str, where: str
) -> None:
    sent: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/openapi.json":
            return httpx.Response(200, json=document(path, where))
        sent.append(request)
        return httpx.Response(200, json={"data": [{"band_gap": 0.61}]})

    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as client:
        spec, invoker = await build_url_route(
            "http://api.test/openapi.json", kind="openapi", name="gaps", client=client
        )
        router = SchemaRouter()
        router.register(spec, invoker)
        with pytest.raises(SchemaValidationError) as refused:
            await router.invoke(PlanRequest(query="band gap", arguments={"formula": LONG}))

    assert refused.value.subject == "arguments"
    assert "do not fit in a request" in str(refused.value)
    assert sent == []
