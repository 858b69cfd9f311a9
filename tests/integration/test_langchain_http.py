"""SchemaRouterTool over real HTTP: a refused primary, a live MP-like API as fallback."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_tests.integration_tests import ToolsIntegrationTests

from schemarouter_integrations import (
    SchemaRouter,
)
from schemarouter_integrations.langchain import SchemaRouterCallbackHandler, SchemaRouterTool
from tests.servers.materials_api import MaterialsApiServer
from tests.support.http import http_router, http_search
from tests.support.langchain import http_tool
from tests.support.seed import FakeInvoker, mp_api, mp_python

pytestmark = pytest.mark.integration


@pytest.mark.anyio
class TestSchemaRouterToolOverHttp(ToolsIntegrationTests):
    @pytest.fixture(autouse=True)
    def _servers(self, materials_api: MaterialsApiServer, refused_url: str) -> None:
        self.router = http_router(refused_url, materials_api.url)

    @property
    def tool_constructor(self) -> type[SchemaRouterTool]:
        return SchemaRouterTool

    @property
    def tool_constructor_params(self) -> dict[str, Any]:
        return {"router": self.router, "name": "materials", "fallback_scope": "same_provider"}

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return {"query": "band gap of Si", "formula": "Si"}


def test_refused_primary_falls_back_to_the_live_api(
    materials_api: MaterialsApiServer, refused_url: str
) -> None:
    handler = SchemaRouterCallbackHandler()
    message = http_tool(http_router(refused_url, materials_api.url)).invoke(
        {
            "type": "tool_call",
            "id": "c1",
            "name": "materials",
            "args": {"query": "band gap of Si", "formula": "Si"},
        },
        config={"callbacks": [handler]},
    )
    assert message.artifact.route == ["mp_api.search", "mp_mirror.search"]
    assert message.artifact.records == [{"band_gap": 0.6105}]
    assert [(f.from_tool, f.to_tool) for f in handler.fallbacks] == [("mp_api", "mp_mirror")]
    assert materials_api.requests.last.fields == ["band_gap"]


@pytest.mark.anyio
async def test_primary_answering_503_falls_back_to_the_python_client(
    materials_api: MaterialsApiServer,
) -> None:
    materials_api.faults.always("503")
    router = SchemaRouter()
    router.register(mp_api(), http_search(materials_api.url))
    router.register(mp_python(), FakeInvoker("mp_python"))
    message = await http_tool(router).ainvoke(
        {"type": "tool_call", "id": "c1", "name": "materials", "args": {"query": "band gap of Si"}}
    )
    assert message.status == "success"
    assert message.content.splitlines()[:2] == [
        "Answered by mp_python.search (materials_project, python).",
        "Fallbacks taken: 1 (mp_api.search -> mp_python.search (unavailable)).",
    ]


def test_every_route_down_over_http_is_a_message_for_the_model(refused_url: str) -> None:
    message = http_tool(http_router(refused_url, refused_url)).invoke(
        {"type": "tool_call", "id": "c1", "name": "materials", "args": {"query": "band gap of Si"}}
    )
    assert message.status == "error"
    assert message.content == (
        "Every data source that could answer was unavailable (tried: mp_api.search, mp_mirror.search). "
        "Try again later or answer without this data."
    )
    assert refused_url.split("//")[1] not in message.content
