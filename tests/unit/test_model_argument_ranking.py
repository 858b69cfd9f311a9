"""Which arguments a model is shown when they cannot all be: filters on served fields first,
the router's own parameters never (``_framework/ranking.py``, ``shown_arguments``)."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import EndpointSpec, FieldSpec, PlanRequest, SchemaRouter, ToolSpec
from schemarouter_integrations._framework import ToolSurface, arguments_model, canonical_arguments
from schemarouter_integrations._framework.arguments import shown_arguments
from tests.support.openapi import DOC_URL, build, document, get, param

pytestmark = pytest.mark.anyio

NUMBER = {"type": "number"}
QUAKE_FIELDS = [FieldSpec(name="event_id"), FieldSpec(name="magnitude"), FieldSpec(name="depth_km")]
QUAKE_RECORD = {
    "type": "object",
    "properties": {
        "event_id": {"type": "string"},
        "magnitude": NUMBER,
        "depth_km": NUMBER,
        "region_name": {"type": "string"},
    },
}
QUAKES = document(
    {
        "/quakes": get(
            "list_quakes",
            parameters=[
                param("magnitude_min", schema=NUMBER),
                param("magnitude_max", schema=NUMBER),
                param("region"),
                param("station"),
                param("_page", schema={"type": "integer"}),
                param("page_size", schema={"type": "integer"}),
                param("_all_fields", schema={"type": "boolean"}),
                param("licence"),
            ],
            schema={"type": "object", "properties": {"data": {"type": "array", "items": QUAKE_RECORD}}},
        ),
        "/stations": get("list_stations", parameters=[param("network"), param("cursor")]),
    }
)


def endpoint(name: str, arguments: dict[str, Any], fields: list[FieldSpec], **extra: Any) -> EndpointSpec:
    schema = {"type": "object", "properties": arguments, **extra}
    return EndpointSpec(name=name, read_only=True, input_schema=schema, fields=fields)


def router_of(*endpoints: EndpointSpec, tool: str = "quakes") -> SchemaRouter:
    router = SchemaRouter()
    router.register(ToolSpec(name=tool, provider="seismo", endpoints=list(endpoints)))
    return router


def first(router: SchemaRouter, count: int) -> list[str]:
    """The names of the *count* arguments that win the places, in rank order."""
    shown, _ = shown_arguments(canonical_arguments(router), max_arguments=count)
    ranked = sorted(canonical_arguments(router), key=lambda a: a.rank())
    return [a.name for a in ranked if a in shown]


async def registered(**options: Any) -> SchemaRouter:
    spec, invoker, _ = await build({DOC_URL: QUAKES}, **options)
    router = SchemaRouter()
    router.register(spec, invoker)
    return router


def test_range_filters_on_served_fields_come_before_other_arguments() -> None:
    router = router_of(
        endpoint("search", {"a_station": {}, "depth_km_gte": NUMBER, "depth_km_lte": NUMBER}, QUAKE_FIELDS)
    )
    assert first(router, 2) == ["depth_km_gte", "depth_km_lte"]


def test_a_bound_on_a_field_no_route_serves_is_no_range_filter() -> None:
    router = router_of(endpoint("search", {"colour_min": NUMBER, "magnitude": NUMBER}, QUAKE_FIELDS))
    (argument,) = [a for a in canonical_arguments(router) if a.name == "colour_min"]
    assert argument.kind == "other"
    assert first(router, 1) == ["magnitude"]


def test_both_bounds_of_a_range_stay_side_by_side() -> None:
    arguments = {"magnitude_max": NUMBER, "depth_km_min": NUMBER, "magnitude_min": NUMBER, "min_depth_km": {}}
    router = router_of(endpoint("search", arguments, QUAKE_FIELDS))
    assert first(router, 4) == ["depth_km_min", "min_depth_km", "magnitude_max", "magnitude_min"]


def test_range_filters_come_before_exact_filters_of_the_same_weight() -> None:
    router = router_of(endpoint("search", {"event_id": {}, "magnitude_gt": NUMBER}, QUAKE_FIELDS))
    assert first(router, 1) == ["magnitude_gt"]


def test_a_filter_on_a_field_more_routes_serve_ranks_first() -> None:
    magnitude_only = [FieldSpec(name="magnitude")]
    router = router_of(
        endpoint("search", {"depth_km_max": NUMBER, "magnitude_max": NUMBER}, QUAKE_FIELDS),
        endpoint("latest", {}, magnitude_only),
        endpoint("largest", {}, magnitude_only),
    )
    assert first(router, 1) == ["magnitude_max"]


def test_an_argument_more_routes_accept_ranks_first() -> None:
    router = router_of(
        endpoint("search", {"depth_km_max": NUMBER, "magnitude_max": NUMBER}, QUAKE_FIELDS),
        endpoint("recent", {"depth_km_max": NUMBER}, [FieldSpec(name="event_id")]),
    )
    assert first(router, 1) == ["depth_km_max"]


def test_an_argument_some_route_requires_comes_first() -> None:
    router = router_of(
        endpoint("search", {"magnitude_min": NUMBER, "station": {}}, QUAKE_FIELDS, required=["station"])
    )
    assert first(router, 1) == ["station"]


@pytest.mark.parametrize(
    ("argument", "field"),
    [("magnitude", "magnitude"), ("event_ids", "event_id"), ("region", "region_name")],
)
def test_an_exact_filter_names_a_field_by_its_name_plural_or_leading_words(argument: str, field: str) -> None:
    router = router_of(endpoint("search", {argument: {}}, [FieldSpec(name=field)]))
    (read,) = canonical_arguments(router)
    assert read.kind == "exact"


async def test_router_parameters_are_never_shown_nor_counted_as_left_out() -> None:
    surface = ToolSurface(await registered())
    shown = set(surface.arguments.json_schema()["properties"])
    assert shown == {"query", "filters", "magnitude_min", "magnitude_max", "region", "station", "network"}
    assert surface.arguments.hidden == ()
    assert set(surface.arguments.owned) == {"_page", "page_size", "_all_fields", "licence", "cursor"}


async def test_a_subset_registered_with_operations_shows_only_its_arguments() -> None:
    surface = ToolSurface(await registered(operations=["list_stations"]))
    assert set(surface.arguments.json_schema()["properties"]) == {"query", "filters", "network"}


async def test_the_model_cannot_send_a_router_parameter() -> None:
    model = arguments_model(await registered()).model
    with pytest.raises(ValueError, match="page"):
        model.model_validate({"query": "quakes", "page": 2})


async def test_a_router_parameter_is_still_accepted_from_the_application() -> None:
    router = await registered()
    plan = router.plan(PlanRequest(query="magnitude of quakes", arguments={"page_size": 5, "_page": 2}))
    assert plan.primary is not None and plan.primary.endpoint == "list_quakes"
    assert plan.primary.arguments == {"page_size": 5, "_page": 2}


def test_an_argument_left_out_is_still_accepted_from_the_application() -> None:
    arguments = {f"depth_km_{bound}": NUMBER for bound in ("min", "max")} | {"station": {}}
    router = router_of(endpoint("search", arguments, QUAKE_FIELDS))
    surface = ToolSurface(router)
    shown, hidden = shown_arguments(canonical_arguments(router), max_arguments=2)
    assert [a.name for a in shown] == ["depth_km_max", "depth_km_min"] and hidden == ("station",)
    assert "station" in surface.arguments.json_schema()["properties"]  # the real budget fits all
    plan = router.plan(PlanRequest(query="magnitude", arguments={"station": "ANMO"}))
    assert plan.primary is not None and plan.primary.arguments == {"station": "ANMO"}


def test_a_renamed_argument_is_shown_by_its_model_facing_name_and_mapped_back() -> None:
    router = router_of(endpoint("search", {"_magnitude_min": NUMBER}, QUAKE_FIELDS))
    arguments = arguments_model(router)
    assert "magnitude_min" in arguments.json_schema()["properties"]  # what MCP clients list
    for given in ({"magnitude_min": 4.5}, {"_magnitude_min": 4.5}):
        values = arguments.model.model_validate({"query": "quakes", **given}).model_dump()
        assert arguments.to_canonical(values) == {"_magnitude_min": 4.5}
