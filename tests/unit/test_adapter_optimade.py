"""OPTIMADE discovery, fields, filters, pagination and error documents (httpx.MockTransport)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from schemarouter_integrations import (
    FieldSpec,
    NonRetryableInvocationError,
    RegistrationError,
    SchemaRouter,
    SchemaValidationError,
    ToolCall,
    ToolSpec,
)
from schemarouter_integrations._framework import arguments_model
from schemarouter_integrations.adapters._optimade import OptimadeInvoker
from schemarouter_integrations.adapters._optimade.filter import build_filter, reduced_formula, string_literal
from schemarouter_integrations.adapters._url import build_url_route

pytestmark = pytest.mark.anyio

BASE = "http://optimade.test"
PROPERTIES = {
    "id": {"type": "string", "description": "An entry's ID.\n\nMore text."},
    "type": {"type": "string"},
    "elements": {"type": "list"},
    "chemical_formula_reduced": {"type": "string"},
    "_oqmd_band_gap": {"type": "float", "unit": "eV", "description": "Band gap."},
    "_oqmd_elements": {"type": "list", "description": "Clashes with a standard name."},
    "_other_thing": {"type": "string"},
}


def info(version: str = "1.2.0", entries: tuple[str, ...] = ("structures", "references")) -> dict[str, Any]:
    return {
        "data": {
            "id": "/",
            "type": "info",
            "attributes": {
                "api_version": version,
                "available_endpoints": ["info", "links", *entries],
                "entry_types_by_format": {"json": list(entries)},
            },
        },
        "meta": {"provider": {"prefix": "oqmd", "name": "OQMD", "description": "Test provider"}},
    }


def entry_info(properties: dict[str, Any]) -> dict[str, Any]:
    return {"data": {"id": "structures", "properties": properties}}


def page(ids: list[str], next_url: str | None = None) -> dict[str, Any]:
    return {
        "data": [{"id": i, "type": "structures", "attributes": {"_oqmd_band_gap": 1.0}} for i in ids],
        "links": {"next": next_url},
    }


class FakeOptimade:
    """A tiny OPTIMADE server: ``routes`` maps URL (no query) to a JSON body or (status, body)."""

    def __init__(self, routes: dict[str, Any]) -> None:
        self.routes = routes
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        answer = self.routes.get(str(request.url.copy_with(query=None)))
        if answer is None:
            return httpx.Response(404, json={"errors": [{"status": "404", "title": "Not Found"}]})
        status, body = answer if isinstance(answer, tuple) else (200, answer)
        if isinstance(body, str):
            return httpx.Response(status, text=body)
        return httpx.Response(status, json=body)

    @property
    def client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=httpx.MockTransport(self))


def standard_routes(**extra: Any) -> dict[str, Any]:
    return {
        f"{BASE}/v1/info": info(),
        f"{BASE}/v1/info/structures": entry_info(PROPERTIES),
        f"{BASE}/v1/info/references": entry_info({"id": {}, "type": {}, "doi": {}}),
        **extra,
    }


async def build(routes: dict[str, Any], url: str = BASE, **kw: Any) -> tuple[ToolSpec, Any, FakeOptimade]:
    server = FakeOptimade(routes)
    spec, invoker = await build_url_route(url, kind="optimade", name="oqmd", client=server.client, **kw)
    return spec, invoker, server


def call(spec: ToolSpec, arguments: dict[str, Any], projection: dict[str, str] | None = None) -> ToolCall:
    ep = spec.endpoints[0]
    return ToolCall(
        tool=spec.name,
        endpoint=ep.name,
        provider=None,
        access_mode=None,
        tool_fingerprint=spec.fingerprint,
        endpoint_fingerprint=ep.fingerprint,
        arguments=arguments,
        selected_fields=(),
        server_projection=projection or {},
        scope="primary",
        read_only=True,
        evidence={},
        explanation="",
    )


# -- filters ----------------------------------------------------------------------------


def test_formula_becomes_a_reduced_formula_comparison() -> None:
    assert build_filter({"formula": "Si"}) == 'chemical_formula_reduced="Si"'


@pytest.mark.parametrize(
    ("given", "reduced"),
    [("GaAs", "AsGa"), ("Ga2As2", "AsGa"), ("Fe4O6", "Fe2O3"), ("O2Ti", "O2Ti"), ("Ca(OH)2", "Ca(OH)2")],
)
def test_formulae_are_written_in_optimade_reduced_form(given: str, reduced: str) -> None:
    assert reduced_formula(given) == reduced


@pytest.mark.parametrize("elements", [["Ga", "As"], "Ga,As", " Ga , As ,"])
def test_elements_become_has_all(elements: Any) -> None:
    assert build_filter({"elements": elements}) == 'elements HAS ALL "Ga","As"'


def test_raw_filter_is_and_ed_in_parentheses() -> None:
    assert build_filter({"filter": "nelements>1 OR nsites<3", "formula": "Si"}) == (
        '(nelements>1 OR nsites<3) AND chemical_formula_reduced="Si"'
    )


def test_quotes_and_backslashes_in_values_are_escaped() -> None:
    assert string_literal('a"b\\c') == '"a\\"b\\\\c"'


@pytest.mark.parametrize(
    "hostile",
    ['Si" OR chemical_formula_reduced="Ge', 'Si\\" OR nelements>0 OR "', "Si\\", '") OR (id="1'],
)
def test_a_value_can_never_inject_filter_syntax(hostile: str) -> None:
    parser_module = pytest.importorskip("optimade.filterparser")
    text = build_filter({"formula": hostile})
    assert text is not None
    tree = parser_module.LarkParser(version=(1, 1, 0)).parse(text)
    strings = [t for t in tree.scan_values(lambda v: getattr(v, "type", "") == "ESCAPED_STRING")]
    assert len(strings) == 1  # the whole value stayed one string literal
    assert len(list(tree.find_data("comparison"))) == 1  # and one comparison, nothing OR-ed


def test_control_characters_are_refused() -> None:
    with pytest.raises(SchemaValidationError, match="control characters"):
        build_filter({"formula": "Si\nOR"})


@pytest.mark.parametrize("raw", ['a="x") OR (b="y"', 'a="x', "(a=1", "a=1)"])
def test_an_unbalanced_raw_filter_is_refused(raw: str) -> None:
    with pytest.raises(SchemaValidationError):
        build_filter({"filter": raw, "formula": "Si"})


def test_parentheses_inside_raw_filter_strings_do_not_count() -> None:
    assert build_filter({"filter": 'id="a)(b\\""'}) == '(id="a)(b\\"")'


# -- discovery and fields ---------------------------------------------------------------


async def test_one_read_only_search_endpoint_per_entry_type() -> None:
    spec, _, _ = await build(standard_routes())
    assert [(e.name, e.read_only, e.records_path) for e in spec.endpoints] == [
        ("search_structures", True, ["data"]),
        ("search_references", True, ["data"]),
    ]


async def test_provider_fields_are_named_without_prefix_and_read_from_the_wire_name() -> None:
    spec, _, _ = await build(standard_routes())
    gap = spec.endpoints[0].field("band_gap")
    assert gap is not None
    assert gap.path == ["_oqmd_band_gap"]
    assert gap.description == "Band gap. (unit: eV)"


async def test_a_provider_field_clashing_with_a_standard_name_keeps_its_wire_name() -> None:
    spec, _, _ = await build(standard_routes())
    names = {f.name for f in spec.endpoints[0].fields}
    assert {"elements", "_oqmd_elements", "_other_thing", "id", "type"} <= names


async def test_response_fields_projection_maps_renamed_fields() -> None:
    spec, _, _ = await build(standard_routes())
    projection = spec.endpoints[0].projection
    assert projection is not None and projection.parameter == "response_fields"
    assert projection.field_map == {"band_gap": "_oqmd_band_gap"}


async def test_fields_option_overrides_by_name() -> None:
    gap = FieldSpec(name="band_gap", path=["_oqmd_band_gap"], aliases=["bandgap", "Eg"])
    spec, _, _ = await build(standard_routes(), fields=[gap])
    assert spec.endpoints[0].field("band_gap") == gap
    assert spec.endpoints[1].field("band_gap") is None


async def test_fields_mapping_targets_endpoints_and_refuses_unknown_ones() -> None:
    doi = FieldSpec(name="doi", aliases=["digital object identifier"])
    spec, _, _ = await build(standard_routes(), fields={"references": [doi]})
    assert spec.endpoints[1].field("doi") == doi
    with pytest.raises(RegistrationError, match="unknown endpoint"):
        await build(standard_routes(), fields={"search_structure": [doi]})


async def test_canonical_arguments_form_a_closed_schema() -> None:
    spec, _, _ = await build(standard_routes())
    structures, references = spec.endpoints
    assert set(structures.input_schema["properties"]) == {
        "formula", "elements", "ids", "material_ids", "band_gap_min", "band_gap_max", "filter", "sort",
        "page_limit",
    }  # fmt: skip
    references_takes = {"ids", "material_ids", "filter", "sort", "page_limit"}
    assert set(references.input_schema["properties"]) == references_takes
    assert structures.input_schema["additionalProperties"] is False


# -- entry types degrade one by one -------------------------------------------------------


def without_references_info() -> dict[str, Any]:
    routes = standard_routes()
    del routes[f"{BASE}/v1/info/references"]  # answered 404 by FakeOptimade
    return routes


async def test_an_entry_type_whose_info_fails_is_left_out() -> None:
    spec, _, _ = await build(without_references_info())
    assert [e.name for e in spec.endpoints] == ["search_structures"]


async def test_a_left_out_entry_type_is_named_in_the_tool_description() -> None:
    spec, _, _ = await build(without_references_info())
    assert spec.description.startswith("Test provider")
    assert "Left out: references (GET /v1/info/references answered 404" in spec.description


async def test_a_left_out_entry_type_is_named_after_a_description_option() -> None:
    spec, _, _ = await build(without_references_info(), description="Our lab's copy")
    assert spec.description.startswith("Our lab's copy Left out: references (")


async def test_a_left_out_entry_type_is_logged_as_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level("WARNING", logger="schemarouter_integrations.adapters.optimade"):
        await build(without_references_info())
    assert any("entry type 'references' left out" in r.getMessage() for r in caplog.records)


async def test_an_entry_type_whose_info_lists_no_properties_is_left_out() -> None:
    routes = standard_routes(**{f"{BASE}/v1/info/references": {"data": {"id": "references"}}})
    spec, _, _ = await build(routes)
    assert [e.name for e in spec.endpoints] == ["search_structures"]
    assert "references (" in spec.description and "lists no properties" in spec.description


async def test_every_entry_type_failing_is_a_registration_error_naming_each() -> None:
    routes = {f"{BASE}/v1/info": info()}
    with pytest.raises(
        RegistrationError, match=r"no entry type .* could be read \(structures: .*; references: "
    ):
        await build(routes)


async def test_the_one_entry_type_failing_is_its_own_error() -> None:
    routes = {f"{BASE}/v1/info": info(entries=("structures",))}
    with pytest.raises(RegistrationError, match=r"could not read http://optimade.test/v1/info/structures"):
        await build(routes)


async def test_a_registration_with_every_entry_type_answering_has_no_note() -> None:
    spec, _, _ = await build(standard_routes())
    assert "Left out" not in spec.description


async def test_a_versioned_base_url_is_used_as_is() -> None:
    spec, _, server = await build(standard_routes(), url=f"{BASE}/v1")
    assert spec.endpoints
    assert str(server.requests[0].url) == f"{BASE}/v1/info"


async def test_versions_listing_without_major_1_is_refused() -> None:
    with pytest.raises(RegistrationError, match=r"major version\(s\) \['2'\]"):
        await build({f"{BASE}/versions": "version\n2\n"})


async def test_an_unversioned_info_is_accepted() -> None:
    routes = {f"{BASE}/info": info(), f"{BASE}/info/structures": entry_info(PROPERTIES)}
    routes[f"{BASE}/info"] = info(entries=("structures",))
    spec, _, _ = await build(routes)
    assert [e.name for e in spec.endpoints] == ["search_structures"]


async def test_a_non_1x_api_is_refused() -> None:
    with pytest.raises(RegistrationError, match=r"1\.x is supported"):
        await build({**standard_routes(), f"{BASE}/v1/info": info(version="2.0.0")})


async def test_an_api_that_cannot_be_discovered_is_a_registration_error() -> None:
    with pytest.raises(RegistrationError, match="no OPTIMADE API found"):
        await build({})


async def test_base_url_is_not_an_optimade_option() -> None:
    with pytest.raises(RegistrationError, match="base_url"):
        await build(standard_routes(), base_url="http://other.test")


# -- searching --------------------------------------------------------------------------


async def test_arguments_and_projection_reach_the_request() -> None:
    routes = standard_routes(**{f"{BASE}/v1/structures": page(["1"])})
    spec, invoker, server = await build(routes)
    await invoker(call(spec, {"formula": "Si", "page_limit": 3}, {"response_fields": "_oqmd_band_gap"}))
    assert server.requests[-1].url.params.multi_items() == [
        ("filter", 'chemical_formula_reduced="Si"'),
        ("page_limit", "3"),
        ("response_fields", "_oqmd_band_gap"),
    ]


async def test_records_are_flattened_under_data() -> None:
    spec, invoker, _ = await build(standard_routes(**{f"{BASE}/v1/structures": page(["1", "2"])}))
    raw = await invoker(call(spec, {}))
    assert raw["data"] == [
        {"id": "1", "type": "structures", "_oqmd_band_gap": 1.0},
        {"id": "2", "type": "structures", "_oqmd_band_gap": 1.0},
    ]


async def test_pagination_follows_next_links_up_to_max_pages() -> None:
    endless = page(["x"], next_url=f"{BASE}/v1/structures?page_offset=1")
    spec, invoker, server = await build(standard_routes(**{f"{BASE}/v1/structures": endless}), max_pages=3)
    raw = await invoker(call(spec, {}))
    searches = [r for r in server.requests if r.url.path == "/v1/structures"]
    assert len(searches) == 3
    assert len(raw["data"]) == 3
    assert raw["meta"] == {"pages": 3, "more_data_available": True}
    assert searches[1].url.params["page_offset"] == "1"


async def test_next_links_to_another_origin_are_not_followed() -> None:
    foreign = page(["x"], next_url="http://evil.test/v1/structures?page_offset=1")
    spec, invoker, server = await build(standard_routes(**{f"{BASE}/v1/structures": foreign}))
    raw = await invoker(call(spec, {}))
    assert all(r.url.host == "optimade.test" for r in server.requests)
    assert raw["meta"]["more_data_available"] is True


async def test_error_documents_are_surfaced_in_the_error() -> None:
    error = {"errors": [{"status": "400", "title": "Bad Request", "detail": "Unable to parse filter"}]}
    spec, invoker, _ = await build(standard_routes(**{f"{BASE}/v1/structures": (400, error)}))
    with pytest.raises(NonRetryableInvocationError, match="Bad Request: Unable to parse filter"):
        await invoker(call(spec, {"filter": "nonsense"}))


async def test_an_error_document_with_status_200_is_still_an_error() -> None:
    error = {"errors": [{"title": "Not Implemented", "detail": "HAS ALL unsupported"}]}
    spec, invoker, _ = await build(standard_routes(**{f"{BASE}/v1/structures": error}))
    with pytest.raises(NonRetryableInvocationError, match="Not Implemented: HAS ALL unsupported"):
        await invoker(call(spec, {"elements": ["Si"]}))


async def test_invoker_repr_shows_no_secret() -> None:
    _, invoker, _ = await build(standard_routes(), headers={"authorization": "Bearer s3cr3t-token"})
    assert isinstance(invoker, OptimadeInvoker)
    assert "s3cr3t" not in repr(invoker) and "s3cr3t" not in repr(invoker.target)


# -- page_limit: the application's --------------------------------------------------------


async def test_page_limit_is_the_routers_business_not_the_models() -> None:
    spec, invoker, _ = await build(standard_routes())
    router = SchemaRouter()
    router.register(spec, invoker)
    arguments = arguments_model(router)
    assert "page_limit" not in arguments.json_schema()["properties"]
    assert arguments.owned == ("page_limit",)


async def test_the_page_limit_option_is_sent_with_every_search() -> None:
    routes = standard_routes(**{f"{BASE}/v1/structures": page(["1"])})
    spec, invoker, server = await build(routes, page_limit=50)
    await invoker(call(spec, {"formula": "Si"}))
    assert server.requests[-1].url.params["page_limit"] == "50"


async def test_a_page_limit_the_application_passes_wins_over_the_option() -> None:
    routes = standard_routes(**{f"{BASE}/v1/structures": page(["1"])})
    spec, invoker, server = await build(routes, page_limit=50)
    await invoker(call(spec, {"page_limit": 3}))
    assert server.requests[-1].url.params["page_limit"] == "3"


async def test_without_a_page_limit_the_database_default_is_used() -> None:
    routes = standard_routes(**{f"{BASE}/v1/structures": page(["1"])})
    spec, invoker, server = await build(routes)
    await invoker(call(spec, {"formula": "Si"}))
    assert "page_limit" not in server.requests[-1].url.params


async def test_a_page_limit_option_out_of_range_is_refused() -> None:
    with pytest.raises(RegistrationError, match="page_limit"):
        await build(standard_routes(), page_limit=0)


async def test_the_count_of_matching_entries_travels_with_the_records() -> None:
    counted = {**page(["1", "2"]), "meta": {"data_returned": 1432, "more_data_available": True}}
    spec, invoker, _ = await build(standard_routes(**{f"{BASE}/v1/structures": counted}))
    raw = await invoker(call(spec, {}))
    assert raw["meta"]["data_returned"] == 1432  # ToolResult.total reads it
