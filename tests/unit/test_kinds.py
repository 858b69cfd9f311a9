"""The table of kinds: one row per kind, from which add_url's kinds and the landscape's entry
models are derived; a row is checked when it is made and when it is registered; and the one
document loader reads a document by any method, its copy keyed by the method and the body."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import httpx
import pytest

from schemarouter_integrations._document_cache import DocumentCache, using
from schemarouter_integrations.adapters import (
    HttpRouteEntry,
    Kind,
    load_document,
    register_kind,
    unregister_kind,
)
from schemarouter_integrations.adapters._http import HttpTarget
from schemarouter_integrations.adapters._kinds import kind_named, kinds, url_kinds
from schemarouter_integrations.config import OpenApiRoute, parse_config
from tests.support.graphql_kind import build_route


class OtherRoute(HttpRouteEntry):
    kind: Literal["other"]


@pytest.fixture
def other() -> Iterator[Kind]:
    row = Kind("other", OtherRoute, build=build_route)
    register_kind(row)
    try:
        yield row
    finally:
        unregister_kind("other")


def test_the_built_in_kinds_are_rows_of_the_table() -> None:
    assert [kind.name for kind in kinds()] == ["openapi", "optimade", "optimade_federation", "python", "mcp"]
    assert url_kinds() == ("openapi", "optimade")


def test_a_registered_kind_is_read_by_url_and_validated_in_a_landscape(other: Kind) -> None:
    assert url_kinds() == ("openapi", "optimade", "other")
    config = parse_config('[routes.x]\nkind = "other"\nurl = "http://127.0.0.1:9/api"\n')
    assert isinstance(config.routes["x"], OtherRoute)
    assert kind_named("other") is other


def test_a_row_whose_entry_does_not_declare_its_kind_is_refused() -> None:
    with pytest.raises(ValueError, match=r"OtherRoute must declare kind: Literal\['graph'\]"):
        Kind("graph", OtherRoute, build=build_route)


def test_a_row_that_can_neither_build_nor_add_an_entry_is_refused() -> None:
    with pytest.raises(ValueError, match="needs build"):
        Kind("other", OtherRoute)


def test_a_kind_name_that_is_not_lower_case_words_is_refused() -> None:
    with pytest.raises(ValueError, match="lower-case"):
        Kind("Other-Kind", OtherRoute, build=build_route)


def test_a_name_already_in_the_table_is_refused_unless_replaced(other: Kind) -> None:
    with pytest.raises(ValueError, match="already registered"):
        register_kind(Kind("other", OtherRoute, build=build_route))
    replacement = Kind("other", OtherRoute, build=build_route, retried=False)
    register_kind(replacement, replace=True)
    assert kind_named("other") is replacement


def test_a_built_in_kind_is_never_replaced_nor_removed() -> None:
    with pytest.raises(ValueError, match="already registered"):
        register_kind(Kind("openapi", OpenApiRoute, build=build_route), replace=True)
    with pytest.raises(ValueError, match="built in"):
        unregister_kind("openapi")


@pytest.mark.anyio
async def test_a_document_asked_for_by_post_is_kept_apart_for_each_body(tmp_path: Path) -> None:
    bodies: list[Any] = []

    def answer(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        return httpx.Response(200, json={"data": {"asked": bodies[-1]["query"]}})

    cache = DocumentCache(tmp_path)
    async with httpx.AsyncClient(transport=httpx.MockTransport(answer)) as client:
        target = HttpTarget(client, "https://api.example.org")
        with using(cache):
            for query in ("a", "b"):
                await load_document(
                    target, "https://api.example.org/graphql", method="POST", body={"query": query}
                )
    assert bodies == [{"query": "a"}, {"query": "b"}]
    assert len(list(tmp_path.glob("*.json"))) == 2  # noqa: ASYNC240 - the test's own folder
    assert not cache.path_for("https://api.example.org/graphql").exists()  # never the GET's copy
