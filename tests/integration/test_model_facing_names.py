"""Argument names shown to models are identifiers every host accepts, the same in LangChain,
LlamaIndex and MCP, and reach the sources under their wire names.

The landscape is the cookbook's Materials-Project-like REST API (``_fields``, ``_limit``,
``_skip``) on loopback, beside a Python route whose own argument is ``_limit`` (so the model
is shown ``limit``), with ``llama_index.core.tools`` and ``llama-index-tools-mcp`` building
their schemas from what the router shows.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from mcp import Client

from cookbook.services.materials_api import MaterialsApiServer
from schemarouter_integrations import SchemaRouter
from schemarouter_integrations._framework import model_facing_names
from schemarouter_integrations.langchain import SchemaRouterTool
from schemarouter_integrations.llamaindex import SchemaRouterToolSpec
from schemarouter_integrations.mcp import router_mcp_server
from tests.servers.uvicorn_thread import UvicornThread

pytestmark = [pytest.mark.anyio, pytest.mark.integration]

IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
KEY = "names-secret"
SEEN: list[dict[str, Any]] = []


def summaries(formula: str | None = None, _limit: int = 10, _skip: int = 0) -> list[dict[str, Any]]:
    """A Python client of the same data whose paging arguments start with an underscore."""
    SEEN.append({"formula": formula, "_limit": _limit, "_skip": _skip})
    return [{"band_gap": 0.61, "formula_pretty": formula or "Si"}][:_limit]


@pytest.fixture
async def router() -> AsyncIterator[SchemaRouter]:
    api = MaterialsApiServer(api_key=KEY)
    api.start()
    router = SchemaRouter()
    try:
        await router.add_url(
            api.openapi_url, kind="openapi", name="mp_api", provider="mp", headers={"x-api-key": KEY},
            operations=["search"],
        )  # fmt: skip
        router.add_callable(
            summaries,
            name="mp_python",
            provider="mp",
            read_only=True,
            fields=["band_gap", {"name": "formula", "path": ["formula_pretty"]}],
        )
        router.api = api  # type: ignore[attr-defined]
        yield router
    finally:
        await router.aclose()
        api.stop()


def test_the_rule_drops_leading_underscores_and_dashes_and_suffixes_collisions() -> None:
    shown = model_facing_names(["_limit", "limit", "-sort", "band-gap.min", "json", "2d", "_"])
    assert shown == {
        "limit": "limit",  # an identifier already keeps its name ...
        "_limit": "limit_2",  # ... and the other one is numbered, whatever the order
        "-sort": "sort",
        "band-gap.min": "band_gap_min",
        "json": "json_2",  # a pydantic BaseModel attribute
        "2d": "arg_2d",
        "_": "arg",
    }
    assert model_facing_names(reversed(list(shown))) == shown
    assert model_facing_names(["fields", "_fields"]) == {
        "_fields": "fields_2",
        "fields": "fields_3",
    }  # sorted


def _shown_properties(schema: dict[str, Any]) -> set[str]:
    return set(schema.get("properties", {}))


def _vendor_keys(node: Any) -> list[str]:
    if isinstance(node, dict):
        own = [k for k in node if isinstance(k, str) and k.startswith("x-")]
        return own + [k for v in node.values() for k in _vendor_keys(v)]
    if isinstance(node, list):
        return [k for v in node for k in _vendor_keys(v)]
    return []


async def test_langchain_llamaindex_and_mcp_show_the_same_identifier_names(router: SchemaRouter) -> None:
    from llama_index.core.tools import FunctionTool

    lc = SchemaRouterTool(router=router, name="materials")
    lc_schema = lc.tool_call_schema.model_json_schema()  # type: ignore[union-attr]
    (li_tool,) = SchemaRouterToolSpec(router).to_tool_list()
    li_schema = li_tool.metadata.get_parameters_dict()
    async with Client(router_mcp_server(router), mode="legacy") as client:
        (mcp_tool,) = (await client.list_tools()).tools

    shown = _shown_properties(lc_schema) - {"query"}
    assert "limit" in shown and "formula" in shown
    assert all(IDENTIFIER.match(name) for name in shown), shown
    assert _shown_properties(li_schema) - {"query"} == shown
    assert _shown_properties(mcp_tool.input_schema) - {"query", "fields"} == shown
    for schema in (lc_schema, li_schema, mcp_tool.input_schema, mcp_tool.output_schema):
        assert not _vendor_keys(schema)

    # LlamaIndex builds its own pydantic model from the MCP schema, as llama-index-tools-mcp does
    FunctionTool.from_defaults(
        fn=lambda **kw: kw, name="materials", description="d", fn_schema=li_tool.metadata.fn_schema
    )


async def test_llama_index_tools_mcp_builds_the_tool_and_calls_it_with_the_shown_names(
    router: SchemaRouter,
) -> None:
    from llama_index.tools.mcp import BasicMCPClient, McpToolSpec

    api: MaterialsApiServer = router.api  # type: ignore[attr-defined]
    thread = UvicornThread(
        router_mcp_server(router, fallback_scope="same_provider").streamable_http_app()
    ).start()
    try:
        spec = McpToolSpec(client=BasicMCPClient(thread.url + "/mcp"))
        (tool,) = await spec.to_tool_list_async()  # no PydanticUserError on the router's names
        assert "limit" in tool.metadata.get_parameters_dict()["properties"]
        SEEN.clear()
        api.requests.clear()
        output = await tool.acall(query="band gap of Si", formula="Si", limit=1)
    finally:
        thread.stop()
    assert "0.61" in str(output.content)
    (request,) = api.requests.to("/materials/summary")
    assert request.query.get("_limit") == "1"  # the wire name reached the REST API
    assert request.query.get("_fields")  # the projection, the router's own business


async def test_an_mcp_call_with_the_shown_names_reaches_the_python_route_by_its_wire_names(
    router: SchemaRouter,
) -> None:
    api: MaterialsApiServer = router.api  # type: ignore[attr-defined]
    api.faults.fail_next("503", times=10)
    SEEN.clear()
    server = router_mcp_server(router, fallback_scope="same_provider")
    async with Client(server, mode="legacy") as client:
        answer = await client.call_tool(
            "data_lookup", {"query": "band gap of Si", "formula": "Si", "limit": 1}
        )
    assert not answer.is_error, answer.content
    assert answer.structured_content is not None
    assert answer.structured_content["answered_by"] == "mp_python.summaries"
    assert SEEN == [{"formula": "Si", "_limit": 1, "_skip": 0}]
