"""A router's MCP server as a route of another router (``add_mcp``), over streamable HTTP.

The inner (lab) router serves two same-provider routes; the outer (institute) router adds
the lab's server beside an archive of its own. The lab's output schema names the record
fields it serves, its ``fields`` argument becomes the route's projection, and what happens
inside the lab reaches the institute as provenance and ``route.inner_fallback`` events.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from mcp import Client

from schemarouter_integrations import FieldSpec, PlanRequest, SchemaRouter, ToolSpec
from schemarouter_integrations.events import RouteInnerFallbackEvent
from schemarouter_integrations.mcp import router_mcp_server
from schemarouter_integrations.otel import instrument
from tests.servers.uvicorn_thread import UvicornThread
from tests.support.otel import tracer_provider

pytestmark = [pytest.mark.anyio, pytest.mark.integration]

FIELDS: list[Any] = ["band_gap", "bulk_modulus", {"name": "formula", "identity": True}]
QUESTION = PlanRequest(
    query="band gap of Si",
    arguments={"formula": "Si"},
    preferred_tools=["lab"],
    fallback_scope="cross_provider",
)


@dataclass
class Landscape:
    lab: SchemaRouter
    institute: SchemaRouter
    url: str
    down: set[str] = field(default_factory=set)
    calls: list[dict[str, Any]] = field(default_factory=list)


def _source(name: str, landscape: Landscape) -> Any:
    def search(formula: str) -> list[dict[str, Any]]:
        landscape.calls.append({"source": name, "formula": formula})
        if name in landscape.down:
            raise ConnectionError(f"{name} is down")
        return [{"formula": formula, "band_gap": 0.61, "bulk_modulus": 98.0}]

    search.__name__ = "search"
    return search


@pytest.fixture
async def landscape() -> AsyncIterator[Landscape]:
    lab = SchemaRouter()
    served = UvicornThread(
        router_mcp_server(
            lab, preferred_tools=["lab_db"], fallback_scope="same_provider"
        ).streamable_http_app()
    ).start()
    found = Landscape(lab=lab, institute=SchemaRouter(), url=served.url + "/mcp")
    for name in ("lab_db", "lab_backup"):
        lab.add_callable(_source(name, found), name=name, provider="lab", read_only=True, fields=FIELDS)
    try:
        await found.institute.add_mcp(found.url, name="lab", provider="lab", read_only=True)
        found.institute.add_callable(
            _source("archive", found), name="archive", provider="institute", read_only=True, fields=FIELDS
        )
        yield found
    finally:
        await found.institute.aclose()
        await lab.aclose()
        served.stop()


async def test_the_lab_server_declares_its_record_fields_and_its_fields_argument_is_the_projection(
    landscape: Landscape,
) -> None:
    spec = landscape.institute.registry.tool("lab")
    assert spec is not None
    (endpoint,) = spec.endpoints
    assert {f.name for f in endpoint.fields} == {"band_gap", "bulk_modulus", "formula"}
    assert endpoint.records_path == ["records"]
    assert endpoint.projection is not None and endpoint.projection.parameter == "fields"

    result = await landscape.institute.invoke(QUESTION)
    assert result.access_path == "lab.data_lookup"
    assert result.records == [{"band_gap": 0.61, "formula": "Si"}]  # only the need and the identity
    assert result.provenance is not None
    assert (result.provenance.answered_by, result.provenance.provider) == ("lab_db.search", "lab")
    (start,) = [e for e in result.events if e.type == "tool.start"]
    assert sorted(start.server_projection["fields"].split(",")) == ["band_gap", "formula"]  # type: ignore[attr-defined]


async def test_a_fallback_inside_the_lab_is_an_inner_event_on_the_outer_route_never_an_outer_fallback(
    landscape: Landscape,
) -> None:
    provider, exporter = tracer_provider()
    handle = instrument(landscape.institute, tracer_provider=provider)
    landscape.down.add("lab_db")
    try:
        result = await landscape.institute.invoke(QUESTION)
    finally:
        handle.uninstrument()
    assert result.route == ["lab.data_lookup"]
    assert not [e for e in result.events if e.type == "tool.fallback"]
    (inner,) = [e for e in result.events if isinstance(e, RouteInnerFallbackEvent)]
    assert (inner.access_path, inner.from_path, inner.to_path, inner.reason) == (
        "lab.data_lookup",
        "lab_db.search",
        "lab_backup.search",
        "unavailable",
    )
    assert result.provenance is not None
    assert result.provenance.route == ["lab_db.search", "lab_backup.search"]
    assert result.records == [{"band_gap": 0.61, "formula": "Si"}]  # canonical, as the institute names them
    (span,) = [s for s in exporter.get_finished_spans() if s.name == "lab.data_lookup"]
    assert [e.name for e in span.events] == ["route.inner_fallback"]


async def test_when_the_whole_lab_is_down_the_institute_falls_back_across_it(landscape: Landscape) -> None:
    landscape.down |= {"lab_db", "lab_backup"}
    result = await landscape.institute.invoke(QUESTION)
    assert result.route == ["lab.data_lookup", "archive.search"]
    assert result.access_path == "archive.search" and result.provenance is None
    (fallback,) = [e for e in result.events if e.type == "tool.fallback"]
    assert fallback.reason == "unavailable"  # type: ignore[attr-defined]
    assert "lab.data_lookup" in landscape.institute.inspect().execution.unavailable_access_paths


async def test_the_lab_answers_calls_without_query_from_the_fields_argument(landscape: Landscape) -> None:
    async with Client(landscape.url) as client:
        answer = await client.call_tool("data_lookup", {"fields": ["bulk_modulus"], "formula": "Si"})
    assert not answer.is_error, answer.content
    assert answer.structured_content is not None
    assert answer.structured_content["records"] == [{"bulk_modulus": 98.0, "formula": "Si"}]


async def test_the_output_schema_follows_the_lab_registry(landscape: Landscape) -> None:
    async with Client(landscape.url) as client:
        (before,) = (await client.list_tools()).tools
        landscape.lab.register(
            ToolSpec(
                name="lab_xrd",
                provider="lab",
                endpoints=[{"name": "search", "read_only": True, "fields": [FieldSpec(name="lattice_a")]}],  # type: ignore[list-item]
            )
        )
        (after,) = (await client.list_tools()).tools
        landscape.lab.remove_tool("lab_xrd")
        (again,) = (await client.list_tools(cache_mode="refresh")).tools

    def record_fields(tool: Any) -> set[str]:
        return set(tool.output_schema["properties"]["records"]["items"]["properties"])

    assert "lattice_a" not in record_fields(before)
    assert "lattice_a" in record_fields(after)
    assert record_fields(again) == record_fields(before)
