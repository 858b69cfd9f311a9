"""OPTIMADE's optional ``sort`` query parameter reaches the reference server: property names,
comma-separated or a list, ``-`` for descending, a field's canonical name sent as the
database's property; asked through the LangChain tool as a model passes it (in ``filters``)."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter
from schemarouter_integrations.langchain import SchemaRouterTool
from tests.servers.optimade_server import OptimadeServer

pytestmark = pytest.mark.anyio


async def oqmd(router: SchemaRouter, server: OptimadeServer) -> SchemaRouter:
    await router.add_url(server.url, kind="optimade", name="oqmd", provider="oqmd", max_pages=1)
    return router


def served(server: OptimadeServer, name: str) -> list[Any]:
    return [s["attributes"][name] for s in server.structures if s["attributes"].get(name) is not None]


async def test_structures_sorted_by_number_of_sites_descending_through_the_tool(
    router: SchemaRouter, optimade_server: OptimadeServer
) -> None:
    tool = SchemaRouterTool(router=await oqmd(router, optimade_server))
    args = {"query": "number of sites of every structure", "filters": {"sort": "-nsites"}}
    message = await tool.ainvoke({"type": "tool_call", "id": "call-1", "name": tool.name, "args": args})
    assert message.status != "error", message.content
    sites = [r["nsites"] for r in message.artifact.records]
    assert sites == sorted(sites, reverse=True)
    assert sites[0] == max(served(optimade_server, "nsites"))


async def test_a_canonical_field_name_is_sorted_by_the_databases_property(
    router: SchemaRouter, optimade_server: OptimadeServer
) -> None:
    await oqmd(router, optimade_server)
    request = PlanRequest(query="band gap", fields=["band_gap"], arguments={"sort": ["band_gap"]})
    result = await router.invoke(request)
    gaps = [r["band_gap"] for r in result.records if r.get("band_gap") is not None]
    assert len(gaps) > 1 and gaps == sorted(gaps)
    assert gaps[0] == pytest.approx(min(served(optimade_server, "band_gap")))


async def test_a_sort_that_is_not_property_names_is_refused_before_anything_is_sent(
    router: SchemaRouter, optimade_server: OptimadeServer
) -> None:
    tool = SchemaRouterTool(router=await oqmd(router, optimade_server))
    args = {"query": "number of sites of every structure", "filters": {"sort": "nsites desc"}}
    message = await tool.ainvoke({"type": "tool_call", "id": "call-1", "name": tool.name, "args": args})
    assert message.status == "error"
    assert "sort: 'nsites desc' does not match" in message.content
