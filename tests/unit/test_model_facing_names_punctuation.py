"""Wire names that start with punctuation (``.format``, ``$filter``, ``@type``, as real
documents write them) are shown to models as names that start with a letter, and building
those names always ends: no name, however written, makes the search for a free one loop."""

from __future__ import annotations

import re
from typing import Any

import pytest

from schemarouter_integrations import SchemaRouter
from schemarouter_integrations._framework import model_facing_names
from schemarouter_integrations.langchain import SchemaRouterTool
from tests.support.openapi import DOC_URL, FakeApi, document, get, param

IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
WIRE = [".format", "$filter", "@type", "$", ".", "@", "._", "$1x", "a.b"]


@pytest.mark.timeout(30)
def test_a_leading_dot_dollar_or_at_sign_is_dropped() -> None:
    assert model_facing_names([".format", "$filter", "@type", "$1x", "a.b"]) == {
        ".format": "format",
        "$filter": "filter",
        "@type": "type",
        "$1x": "arg_1x",
        "a.b": "a_b",
    }


@pytest.mark.timeout(30)
def test_every_shown_name_starts_with_a_letter_and_is_unique() -> None:
    shown = model_facing_names([*WIRE, "format", "filter", "arg", "arg_2"])
    assert all(IDENTIFIER.match(name) for name in shown.values()), shown
    assert len(set(shown.values())) == len(shown)
    assert shown["format"] == "format" and shown[".format"] == "format_2"


@pytest.mark.timeout(30)
def test_many_names_that_collide_are_numbered_in_bounded_time() -> None:
    wire = [f"{'.' * i}format" for i in range(1, 200)] + ["format"]
    shown = model_facing_names(wire)
    assert len(set(shown.values())) == len(wire)
    assert all(IDENTIFIER.match(name) for name in shown.values())


NASA_LIKE = document(
    {
        "/search": get(
            "search",
            parameters=[
                param(".format", schema={"type": "string", "enum": ["json", "xml"]}),
                param("$filter"),
                param("@type"),
                param(".keyword"),
            ],
            schema={
                "type": "object",
                "properties": {
                    "data": {
                        "type": "array",
                        "items": {"type": "object", "properties": {"title": {"type": "string"}}},
                    }
                },
            },
        )
    }
)


@pytest.mark.anyio
@pytest.mark.timeout(60)
async def test_a_langchain_tool_over_such_a_document_is_built_and_maps_names_back() -> None:
    api = FakeApi({DOC_URL: NASA_LIKE})
    api.answer = {"data": [{"title": "Mars"}]}
    router = SchemaRouter(http_client=api.client)
    await router.add_url(DOC_URL, kind="openapi", name="nasa")
    tool = SchemaRouterTool(router=router, name="nasa")
    schema: Any = tool.tool_call_schema
    properties = set(schema.model_json_schema()["properties"])
    assert {"keyword", "filter", "type"} <= properties  # .format is the application's (a format)
    await tool.ainvoke({"query": "title", "keyword": "red", "filter": "mars", "type": "image"})
    sent = api.requests[-1].url.params
    assert (sent[".keyword"], sent["$filter"], sent["@type"]) == ("red", "mars", "image")
    await router.aclose()
