"""Routers of routers that compose safely, with real MCP servers and clients: in process
(an ``MCPServer`` target) and over streamable HTTP on loopback.

An inner router with no route available answers "unavailable", so the outer router falls
back across it; a hop list in the request ``_meta`` refuses loops and chains deeper than
``max_hops`` (reason ``loop``); provenance carries every level's answerer.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio
import pytest
from mcp import Client

from schemarouter_integrations import AllRoutesUnavailableError, PlanRequest, SchemaRouter
from schemarouter_integrations.adapters import mcp_ping_probe
from schemarouter_integrations.errors import ConfigurationError
from schemarouter_integrations.mcp import router_mcp_server
from schemarouter_integrations.mcp._server import ERROR_META_KEY
from tests.servers.uvicorn_thread import UvicornThread

pytestmark = [pytest.mark.anyio, pytest.mark.integration]

FIELDS: list[Any] = ["band_gap", {"name": "formula", "identity": True}]
TRANSPORTS = ["in_process", "http"]
Serve = Callable[[SchemaRouter], Any]


def ask(*preferred: str) -> PlanRequest:
    return PlanRequest(
        query="band gap of Si",
        arguments={"formula": "Si"},
        preferred_tools=list(preferred),
        fallback_scope="cross_provider",
    )


def source(router: SchemaRouter, name: str, calls: list[str], *, provider: str | None = None) -> None:
    def search(formula: str) -> list[dict[str, Any]]:
        calls.append(name)
        return [{"formula": formula, "band_gap": 0.61}]

    search.__name__ = "search"
    router.add_callable(search, name=name, provider=provider or name, read_only=True, fields=FIELDS)


@pytest.fixture(params=TRANSPORTS)
async def serve(request: pytest.FixtureRequest) -> AsyncIterator[Serve]:
    """``serve(router)``: the router's MCP server as an ``add_mcp`` target of that transport."""
    threads: list[UvicornThread] = []
    routers: list[SchemaRouter] = []

    def served(router: SchemaRouter) -> Any:
        routers.append(router)
        server = router_mcp_server(router, fallback_scope="cross_provider")
        if request.param == "in_process":
            return server
        thread = UvicornThread(server.streamable_http_app()).start()
        threads.append(thread)
        return thread.url + "/mcp"

    try:
        yield served
    finally:
        for router in routers:
            await router.aclose()
        for thread in threads:
            thread.stop()


async def test_an_inner_router_whose_sources_all_cool_down_is_fallen_back_across(serve: Serve) -> None:
    calls: list[str] = []
    lab = SchemaRouter()
    source(lab, "lab_db", calls, provider="lab")
    institute = SchemaRouter()
    await institute.add_mcp(serve(lab), name="lab", provider="lab", read_only=True, timeout_seconds=10)
    source(institute, "archive", calls)
    lab.mark_access_unavailable("lab_db", "search", seconds=300)
    try:
        result = await institute.invoke(ask("lab"))
        assert result.access_path == "archive.search"
        assert result.route == ["lab.data_lookup", "archive.search"]
        (fallback,) = [e for e in result.events if e.type == "tool.fallback"]
        assert fallback.reason == "unavailable"  # type: ignore[attr-defined]
        # the documented probe reopens the lab route (the lab server is up): the next question
        # meets the cooling lab again and falls back again, every time
        assert await mcp_ping_probe(institute, "lab")()
        institute.mark_access_available("lab", "data_lookup")
        again = await institute.invoke(ask("lab"))
        assert again.route == ["lab.data_lookup", "archive.search"]
        assert calls == ["archive", "archive"]
    finally:
        await institute.aclose()


async def test_an_inner_router_says_unavailable_in_its_error_meta_while_its_sources_cool_down() -> None:
    lab = SchemaRouter()
    source(lab, "lab_db", [], provider="lab")
    lab.mark_access_unavailable("lab_db", "search", seconds=300)
    async with Client(router_mcp_server(lab)) as client:
        answer = await client.call_tool("data_lookup", {"query": "band gap", "formula": "Si"})
    assert answer.is_error
    assert answer.meta is not None
    said = answer.meta[ERROR_META_KEY]
    assert said["unavailable"] is True and said["type"] == "NoRouteError"


async def mutual(serve: Serve, calls: list[str]) -> tuple[SchemaRouter, SchemaRouter]:
    """Two routers that register each other's MCP server; alpha also has an archive."""
    alpha, beta = SchemaRouter(), SchemaRouter()
    source(alpha, "archive", calls)
    alpha_target, beta_target = serve(alpha), serve(beta)
    await beta.add_mcp(alpha_target, name="alpha", provider="alpha", read_only=True, timeout_seconds=5)
    await alpha.add_mcp(beta_target, name="beta", provider="beta", read_only=True, timeout_seconds=5)
    return alpha, beta


async def test_two_routers_that_register_each_other_refuse_the_loop_at_once(serve: Serve) -> None:
    calls: list[str] = []
    alpha, beta = await mutual(serve, calls)
    with anyio.fail_after(30):  # the test's own deadline: no loop until a timeout, no RuntimeError
        result = await alpha.invoke(ask("beta"))
    assert result.route == ["beta.data_lookup", "archive.search"]
    assert result.access_path == "archive.search" and calls == ["archive"]
    (fallback,) = [e for e in result.events if e.type == "tool.fallback"]
    assert fallback.reason == "loop"  # type: ignore[attr-defined]
    # a refused loop is not an outage: nothing cools down on either side
    assert alpha.inspect().execution.unavailable_access_paths == []
    assert beta.inspect().execution.unavailable_access_paths == []


async def test_a_loop_with_no_other_route_ends_typed_not_in_a_runtime_error(serve: Serve) -> None:
    calls: list[str] = []
    alpha, _ = await mutual(serve, calls)
    alpha.mark_access_unavailable("archive", "search", seconds=300)
    with anyio.fail_after(30), pytest.raises(AllRoutesUnavailableError) as raised:
        await alpha.invoke(ask("beta"))
    (attempt,) = raised.value.attempts
    assert attempt.access_path == "beta.data_lookup" and attempt.error_type == "RoutingLoopError"
    assert calls == []


async def test_three_levels_deep_the_provenance_is_a_chain_of_three(serve: Serve) -> None:
    calls: list[str] = []
    inner, middle, outer = SchemaRouter(), SchemaRouter(), SchemaRouter()
    source(inner, "inner_db", calls, provider="lab")
    await middle.add_mcp(serve(inner), name="inner", provider="lab", read_only=True, timeout_seconds=10)
    await outer.add_mcp(serve(middle), name="middle", provider="lab", read_only=True, timeout_seconds=10)
    try:
        result = await outer.invoke(ask("middle"))
    finally:
        await outer.aclose()
    assert result.access_path == "middle.data_lookup"
    assert result.provenance is not None
    assert result.provenance.answered_by == "inner_db.search"  # the innermost answerer
    assert result.provenance.provider == "lab"
    assert result.provenance.route == ["inner_db.search"]
    assert result.provenance.chain == ["middle.data_lookup", "inner.data_lookup", "inner_db.search"]
    assert result.records == [{"band_gap": 0.61, "formula": "Si"}]


async def test_a_chain_deeper_than_max_hops_is_refused_with_reason_loop(serve: Serve) -> None:
    calls: list[str] = []
    inner, middle, outer = SchemaRouter(max_hops=1), SchemaRouter(), SchemaRouter()
    source(inner, "inner_db", calls, provider="lab")
    await middle.add_mcp(serve(inner), name="inner", provider="lab", read_only=True, timeout_seconds=10)
    await outer.add_mcp(serve(middle), name="middle", provider="lab", read_only=True, timeout_seconds=10)
    source(outer, "archive", calls)
    try:
        result = await outer.invoke(ask("middle"))
    finally:
        await outer.aclose()
    assert result.access_path == "archive.search" and calls == ["archive"]  # inner_db never asked
    (fallback,) = [e for e in result.events if e.type == "tool.fallback"]
    assert fallback.reason == "loop"  # type: ignore[attr-defined]


async def test_a_call_whose_hop_list_is_too_long_is_refused_as_unavailable_with_reason_loop() -> None:
    lab = SchemaRouter()
    source(lab, "lab_db", [], provider="lab")
    hops = {"schemarouter/hops": ["a", "b", "c", "d", "e"]}  # five routers, one more than max_hops
    async with Client(router_mcp_server(lab)) as client:
        refused = await client.call_tool("data_lookup", {"formula": "Si"}, meta=hops)  # type: ignore[arg-type]
        answered = await client.call_tool("data_lookup", {"formula": "Si"}, meta={"schemarouter/hops": ["a"]})  # type: ignore[arg-type]
    assert refused.is_error and refused.meta is not None
    assert refused.meta[ERROR_META_KEY] == {"type": "RoutingLoopError", "unavailable": True, "reason": "loop"}
    assert not answered.is_error


async def test_max_hops_must_be_a_positive_whole_number() -> None:
    for bad in (0, -1, 2.5, True, "4"):
        with pytest.raises(ConfigurationError, match="max_hops"):
            SchemaRouter(max_hops=bad)  # type: ignore[arg-type]
    assert SchemaRouter().max_hops == 4
