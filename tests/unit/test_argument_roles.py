"""Which parameters are the router's business (paging, field selection, formatting, licence):
the rule of ``adapters/_roles.py``, and the OpenAPI adapter noting it in the input schema."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations._contracts.schemas import ARGUMENT_ROLE
from schemarouter_integrations.adapters._roles import argument_role, paging_kind
from tests.support.openapi import DOC_URL, build, call, document, get, param

pytestmark = pytest.mark.anyio

INTEGER = {"type": "integer"}
TEXT = {"type": "string"}
FLAG = {"type": "boolean"}
QUAKES = document(
    {
        "/quakes": get(
            "list_quakes",
            parameters=[
                param("magnitude_min", schema={"type": "number"}),
                param("region"),
                param("pageSize", schema=INTEGER),
                param("cursor"),
                param("licence"),
                param("format"),
                param("station", required=True),
                param("limit", required=True, schema=INTEGER),
            ],
        )
    }
)


@pytest.mark.parametrize(
    ("name", "schema"),
    [
        ("page", INTEGER),
        ("_page", INTEGER),
        ("per_page", INTEGER),
        ("perPage", INTEGER),
        ("page_size", INTEGER),
        ("page[number]", INTEGER),
        ("pageToken", TEXT),
        ("nextPageToken", TEXT),
        ("limit", INTEGER),
        ("_limit", INTEGER),
        ("offset", INTEGER),
        ("_skip", INTEGER),
        ("$top", INTEGER),
        ("maxResults", INTEGER),
        ("cursor", TEXT),
        ("starting_after", TEXT),
    ],
)
def test_paging_parameters_are_pagination(name: str, schema: dict[str, Any]) -> None:
    assert argument_role(name, schema) == "pagination"


@pytest.mark.parametrize(
    ("name", "schema"),
    [
        ("fields", TEXT),
        ("_fields", TEXT),
        ("_all_fields", FLAG),
        ("response_fields", TEXT),
        ("$select", TEXT),
        ("include_fields", {"type": "array", "items": TEXT}),
        ("fields[quakes]", TEXT),
    ],
)
def test_field_selection_parameters_are_projection(name: str, schema: dict[str, Any]) -> None:
    assert argument_role(name, schema) == "projection"


@pytest.mark.parametrize("name", ["format", "_format", "$format", "id_format", "response_format", "pretty"])
def test_response_shape_parameters_are_format(name: str) -> None:
    assert argument_role(name, TEXT) == "format"


@pytest.mark.parametrize("name", ["license", "_license", "licence"])
def test_licence_parameters_are_licence(name: str) -> None:
    assert argument_role(name, {"enum": ["open", "commercial"], "type": "string"}) == "licence"


@pytest.mark.parametrize(
    ("name", "schema"),
    [
        ("magnitude_min", {"type": "number"}),
        ("page_id", TEXT),
        ("page_count", INTEGER),
        ("region", TEXT),
        ("has_fields", FLAG),
        ("sort_fields", TEXT),
        ("file_format_version", TEXT),
        ("limit", {"type": "array", "items": INTEGER}),
        ("page", FLAG),
    ],
)
def test_domain_parameters_have_no_role(name: str, schema: dict[str, Any]) -> None:
    assert argument_role(name, schema) is None


def test_a_required_parameter_has_no_role_whatever_its_name() -> None:
    assert argument_role("limit", INTEGER, required=True) is None


async def test_the_openapi_adapter_notes_each_role_in_the_input_schema() -> None:
    spec, _, _ = await build({DOC_URL: QUAKES})
    properties = spec.endpoints[0].input_schema["properties"]
    roles = {name: schema.get(ARGUMENT_ROLE) for name, schema in properties.items()}
    assert roles == {
        "magnitude_min": None,
        "region": None,
        "pageSize": "pagination",
        "cursor": "pagination",
        "licence": "licence",
        "format": "format",
        "station": None,
        "limit": None,
    }


async def test_a_role_keeps_the_parameter_in_the_input_schema_for_the_application() -> None:
    spec, invoker, api = await build({DOC_URL: QUAKES})
    await invoker(call(spec, "list_quakes", {"station": "ANMO", "limit": 5, "pageSize": 10}))
    assert api.requests[-1].url.params["pageSize"] == "10"


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("_skip", "offset"),
        ("offset", "offset"),
        ("start_index", "offset"),
        ("_limit", "size"),
        ("_per_page", "size"),
        ("page[size]", "size"),
        ("max_results", "size"),
        ("_page", "page"),
        ("page[number]", "page"),
        ("nextPageToken", "cursor"),
        ("starting_after", "cursor"),
        ("cursor", "cursor"),
    ],
)
def test_a_pagination_parameter_says_how_it_pages(name: str, kind: str) -> None:
    assert paging_kind(name) == kind
