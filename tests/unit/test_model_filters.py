"""The model passes any filter a source accepts: the few shown as top-level keys, every other
one through the optional ``filters`` object by model-facing name, checked against the routes
(a name no route takes names the closest accepted ones), in every face alike."""

from __future__ import annotations

import inspect
import json
from typing import Any

import pytest

from schemarouter_integrations import EndpointSpec, FieldSpec, SchemaRouter, ToolSpec
from schemarouter_integrations._framework import ToolOptions, ToolSurface, run_for_model
from schemarouter_integrations._framework.arguments import MAX_MODEL_SCHEMA_BYTES
from schemarouter_integrations.langchain import SchemaRouterTool
from schemarouter_integrations.mcp import router_mcp_server

pytestmark = pytest.mark.anyio
WIDE = [f"long_filter_name_{i:03d}_max" for i in range(80)]


def wide_search(names: list[str], seen: dict[str, Any]) -> Any:
    """A callable taking every one of *names* (an optional number each); it records what it got."""

    async def search(**kwargs: Any) -> list[dict[str, Any]]:
        seen.update(kwargs)
        return [{"material_id": "mp-1", "band_gap": 1.0}]

    parameters = [
        inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=float | None)
        for n in names
    ]
    search.__signature__ = inspect.Signature(parameters, return_annotation=list[dict[str, Any]])  # type: ignore[attr-defined]
    search.__annotations__ = {n: float | None for n in names} | {"return": list[dict[str, Any]]}
    return search


@pytest.fixture
def seen() -> dict[str, Any]:
    return {}


@pytest.fixture
def wide(seen: dict[str, Any]) -> SchemaRouter:
    router = SchemaRouter()
    router.add_callable(
        wide_search(WIDE, seen), name="mp", read_only=True, fields=["material_id", "band_gap"]
    )
    return router


async def answer(router: SchemaRouter, values: dict[str, Any]) -> Any:
    surface = ToolSurface(router)
    return await run_for_model(router, values, arguments=surface.arguments, options=ToolOptions())


async def test_a_filter_not_shown_as_a_key_reaches_the_source_through_filters(
    wide: SchemaRouter, seen: dict[str, Any]
) -> None:
    surface = ToolSurface(wide)
    hidden = surface.arguments.hidden[-1]
    assert hidden not in surface.arguments.json_schema()["properties"]
    outcome = await answer(wide, {"query": "band gap", "filters": {hidden: "2.5"}})
    assert outcome.result is not None
    assert seen == {hidden: 2.5}  # checked against its schema: the number it means


async def test_a_filter_name_no_route_takes_is_a_tool_error_naming_the_closest_names(
    wide: SchemaRouter,
) -> None:
    outcome = await answer(wide, {"query": "band gap", "filters": {"long_filter_name_079_mx": 2}})
    assert outcome.result is None
    assert "no data source takes a filter named 'long_filter_name_079_mx'" in outcome.content
    assert "did you mean 'long_filter_name_079_max'" in outcome.content


async def test_a_filter_value_its_schema_refuses_is_a_tool_error(wide: SchemaRouter) -> None:
    outcome = await answer(wide, {"query": "band gap", "filters": {WIDE[-1]: "many"}})
    assert outcome.result is None
    assert f"filter '{WIDE[-1]}'" in outcome.content


def test_the_filters_description_names_filters_that_are_not_keys(wide: SchemaRouter) -> None:
    surface = ToolSurface(wide)
    description = surface.arguments.json_schema()["properties"]["filters"]["description"]
    assert surface.arguments.hidden[0] in description
    assert "pass any of them in `filters`" in surface.description


def test_the_routers_own_arguments_are_refused_in_filters() -> None:
    router = SchemaRouter()
    schema = {
        "type": "object",
        "properties": {
            "formula": {"type": "string"},
            "page": {"type": "integer", "x-argument-role": "pagination"},
        },
    }
    endpoint = EndpointSpec(
        name="search", read_only=True, input_schema=schema, fields=[FieldSpec(name="band_gap")]
    )
    router.register(ToolSpec(name="mp", provider="p", endpoints=[endpoint]))
    model = ToolSurface(router).arguments.model
    with pytest.raises(ValueError, match="set by the tool itself"):
        model.model_validate({"query": "band gap", "filters": {"page": 2}})


def test_a_source_argument_named_filters_is_shown_by_another_name() -> None:
    router = SchemaRouter()
    schema = {"type": "object", "properties": {"filters": {"type": "string"}, "formula": {"type": "string"}}}
    endpoint = EndpointSpec(
        name="search", read_only=True, input_schema=schema, fields=[FieldSpec(name="band_gap")]
    )
    router.register(ToolSpec(name="mp", provider="p", endpoints=[endpoint]))
    arguments = ToolSurface(router).arguments
    properties = arguments.json_schema()["properties"]
    assert properties["filters"]["type"] == "object"  # the object, not the source's string
    assert "filters_2" in properties
    assert arguments.to_canonical(arguments.checked({"query": "q", "filters_2": "x"})) == {"filters": "x"}


async def test_a_filter_makes_the_route_that_takes_it_preferred() -> None:
    async def summary(formula: str | None = None) -> list[dict[str, Any]]:
        """Materials summary."""
        return [{"formula": "Si", "bulk_modulus": 1.0}]

    async def elasticity(formula: str | None = None, k_vrh_min: float | None = None) -> list[dict[str, Any]]:
        """Elastic constants."""
        return [{"formula": "Si", "bulk_modulus": 98.0}]

    router = SchemaRouter()
    router.add_callable(summary, name="summary", read_only=True, fields=["formula", "bulk_modulus"])
    router.add_callable(elasticity, name="elasticity", read_only=True, fields=["formula", "bulk_modulus"])
    outcome = await answer(router, {"query": "bulk modulus", "filters": {"k_vrh_min": 50}})
    assert outcome.result is not None and outcome.result.access_path == "elasticity.elasticity"


def test_the_whole_schema_stays_within_its_byte_budget() -> None:
    router = SchemaRouter()
    described = {
        f"threshold_{i:02d}": {"type": "number", "description": f"Lower bound number {i} " + "x" * 300}
        for i in range(40)
    }
    schema = {"type": "object", "properties": described}
    endpoint = EndpointSpec(
        name="search", read_only=True, input_schema=schema, fields=[FieldSpec(name="band_gap")]
    )
    router.register(ToolSpec(name="mp", provider="p", endpoints=[endpoint]))
    arguments = ToolSurface(router).arguments
    assert len(json.dumps(arguments.json_schema())) <= MAX_MODEL_SCHEMA_BYTES
    moved = arguments.hidden[0]
    assert arguments.to_canonical(arguments.checked({"query": "q", "filters": {moved: 1}})) == {moved: 1.0}


async def test_the_langchain_tool_takes_filters(wide: SchemaRouter, seen: dict[str, Any]) -> None:
    tool = SchemaRouterTool(router=wide, name="materials")
    hidden = tool.arguments.hidden[-1]
    await tool.ainvoke({"query": "band gap", "filters": {hidden: 3}})
    assert seen == {hidden: 3.0}


async def test_the_mcp_tool_takes_filters_and_refuses_unknown_ones(
    wide: SchemaRouter, seen: dict[str, Any]
) -> None:
    server = router_mcp_server(wide)
    hidden = server.surface.arguments.hidden[-1]
    answered = await server.call_tool("data_lookup", {"query": "band gap", "filters": {hidden: 4}})
    assert not answered.is_error and seen == {hidden: 4.0}
    refused = await server.call_tool(
        "data_lookup", {"query": "band gap", "filters": {"long_filter_name_79_max": 4}}
    )
    assert refused.is_error
    assert "did you mean" in refused.content[0].text  # type: ignore[union-attr]


async def test_the_llamaindex_tool_takes_filters_and_refuses_unknown_ones(
    wide: SchemaRouter, seen: dict[str, Any]
) -> None:
    from schemarouter_integrations.llamaindex import SchemaRouterToolSpec

    spec = SchemaRouterToolSpec(wide)
    (tool,) = spec.to_tool_list()
    hidden = spec.arguments.hidden[-1]
    answered = await tool.acall(query="band gap", filters={hidden: 5})
    assert not answered.is_error and seen == {hidden: 5.0}
    refused = await tool.acall(query="band gap", filters={"long_filter_name_79_max": 5})
    assert refused.is_error and "did you mean" in str(refused.content)
