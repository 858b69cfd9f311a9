"""A new kind of access path is one module and one table row: a GraphQL-like kind
(``tests/support/graphql_kind.py``) registered with ``register_kind`` is read by ``add_url``
(its introspection asked by ``POST``, through the document cache), called with its fields,
its GraphQL ``errors`` raised as the router's typed errors, and declared in a landscape file
with its own keys and messages; nothing else in the package names it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cookbook.services.uvicorn_thread import UvicornThread
from schemarouter_integrations import PlanRequest, SchemaRouter
from schemarouter_integrations.adapters import register_kind, unregister_kind
from schemarouter_integrations.config import LandscapeError, parse_config
from schemarouter_integrations.errors import (
    AllRoutesUnavailableError,
    NonRetryableInvocationError,
    RegistrationError,
)
from tests.servers.graphql_api import graphql_api
from tests.support.graphql_kind import GRAPHQL, GraphQLRoute

pytestmark = pytest.mark.anyio

Running = tuple[UvicornThread, list[dict[str, Any]]]


@pytest.fixture
def graphql_kind() -> Iterator[None]:
    register_kind(GRAPHQL)
    try:
        yield
    finally:
        unregister_kind("graphql")


@pytest.fixture
def api(graphql_kind: None) -> Iterator[Running]:
    with graphql_api() as running:
        yield running


async def registered(server: UvicornThread, **options: Any) -> SchemaRouter:
    router = SchemaRouter()
    await router.add_url(f"{server.url}/graphql", kind="graphql", name="lab", provider="lab", **options)
    return router


async def test_add_url_reads_a_registered_kind_by_its_introspection(api: Running) -> None:
    server, requests = api
    router = await registered(server)
    endpoints = {e.name: [f.name for f in e.fields] for e in router.tools["lab"].endpoints}
    assert endpoints == {
        "materials": ["material_id", "formula", "band_gap"],
        "element": ["symbol", "atomic_number"],
    }
    assert "__schema" in requests[0]["query"]


async def test_a_question_is_answered_through_the_new_kind(api: Running) -> None:
    server, requests = api
    router = await registered(server)
    result = await router.invoke(PlanRequest(query="band gap of materials", arguments={"formula": "GaN"}))
    # the record names its subject (the formula it was asked by)
    assert result.records == [{"material_id": "mp-804", "formula": "GaN", "band_gap": 1.73}]
    assert requests[-1]["variables"] == {"formula": "GaN"}


async def test_a_graphql_error_is_a_deterministic_failure(api: Running) -> None:
    server, _ = api
    router = await registered(server, operations=["element"])
    with pytest.raises(NonRetryableInvocationError, match="no element 'Xx'"):
        await router.invoke(PlanRequest(query="atomic number of an element", arguments={"symbol": "Xx"}))


async def test_a_graphql_unavailable_error_makes_the_route_unavailable(api: Running) -> None:
    server, _ = api
    router = await registered(server, operations=["element"])
    with pytest.raises(AllRoutesUnavailableError, match="the element service is down"):
        await router.invoke(PlanRequest(query="atomic number of an element", arguments={"symbol": "Og"}))


async def test_an_option_the_kind_does_not_take_is_refused_before_anything_is_sent(api: Running) -> None:
    server, requests = api
    with pytest.raises(RegistrationError, match=r"unknown option\(s\) \['tags'\]"):
        await registered(server, tags=["x"])
    assert requests == []


async def test_the_introspection_is_kept_by_the_document_cache_and_stands_in(
    graphql_kind: None, tmp_path: Path
) -> None:
    with graphql_api() as (server, _):
        url = f"{server.url}/graphql"
        async with SchemaRouter(document_cache=tmp_path) as router:
            await router.add_url(url, kind="graphql", name="lab")
    assert len(list(tmp_path.glob("*.json"))) == 1  # noqa: ASYNC240 - a test's own folder
    async with SchemaRouter(document_cache=tmp_path) as router:
        await router.add_url(url, kind="graphql", name="lab")  # the server is gone: the copy answers
        assert sorted(e.name for e in router.tools["lab"].endpoints) == ["element", "materials"]
        assert list(router.inspect().documents.from_cache) == [f"POST {url}"]


async def test_a_landscape_declares_the_new_kind_with_its_own_keys(api: Running) -> None:
    server, _ = api
    text = f'[routes.lab]\nkind = "graphql"\nurl = "{server.url}/graphql"\noperations = ["materials"]\n'
    config = parse_config(text)
    assert isinstance(config.routes["lab"], GraphQLRoute)
    async with await SchemaRouter.from_config(config, strict=True) as router:
        assert [e.name for e in router.tools["lab"].endpoints] == ["materials"]


def test_a_misspelt_key_of_the_new_kind_is_suggested(graphql_kind: None) -> None:
    text = '[routes.lab]\nkind = "graphql"\nurl = "http://127.0.0.1:9/graphql"\noperatons = ["x"]\n'
    with pytest.raises(LandscapeError) as caught:
        parse_config(text)
    assert str(caught.value) == "<config>:4: routes.lab.operatons: unknown key (did you mean 'operations'?)"


def test_the_kinds_a_landscape_accepts_name_the_new_kind(graphql_kind: None) -> None:
    with pytest.raises(LandscapeError, match=r"kind is missing: one of .*'mcp', 'graphql'"):
        parse_config('[routes.lab]\nurl = "http://127.0.0.1:9/graphql"\n')
    with pytest.raises(LandscapeError, match="'mcp', 'graphql'"):
        parse_config('[routes.lab]\nkind = "graphq"\nurl = "http://127.0.0.1:9/graphql"\n')


async def test_a_kind_removed_from_the_table_is_refused_again() -> None:
    register_kind(GRAPHQL)
    unregister_kind("graphql")
    with pytest.raises(RegistrationError, match=r"kind must be one of \('openapi', 'optimade'\)"):
        await SchemaRouter().add_url("http://127.0.0.1:9/graphql", kind="graphql", name="lab")
    with pytest.raises(LandscapeError, match="does not match any of the expected tags"):
        parse_config('[routes.lab]\nkind = "graphql"\nurl = "http://127.0.0.1:9/graphql"\n')
