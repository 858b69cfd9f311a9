"""OpenAPI documents as tools: parsing edge cases and request building (httpx.MockTransport)."""

from __future__ import annotations

import json

import pytest
import yaml

from schemarouter_integrations import (
    FieldSpec,
    RegistrationError,
    SchemaValidationError,
    ServerProjectionSpec,
)
from schemarouter_integrations.adapters import _documents as openapi_module
from schemarouter_integrations.adapters._openapi.invoker import OpenApiInvoker
from tests.support.openapi import DOC_URL, build, call, document, get, ok, param

pytestmark = pytest.mark.anyio

KEY = "sk-live-abcdef123456"


RECORD = {
    "type": "object",
    "properties": {
        "material_id": {"type": "string"},
        "band_gap": {"anyOf": [{"type": "number"}, {"type": "null"}], "description": "Gap (eV)"},
    },
}
ENVELOPE = {
    "type": "object",
    "properties": {
        "data": {"type": "array", "items": {"$ref": "#/components/schemas/Doc"}},
        "meta": {"type": "object"},
    },
}
SEARCH = document(
    {
        "/materials/summary/": get(
            "search",
            parameters=[param("formula"), param("_fields"), param("_limit", schema={"type": "integer"})],
            schema=ENVELOPE,
        ),
        "/materials/{material_id}": get(
            "get_material", parameters=[param("material_id", "path")], schema=ENVELOPE
        ),
        "/materials/": {
            "post": {
                "operationId": "create_material",
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Doc"}}},
                },
                "responses": ok({"$ref": "#/components/schemas/Doc"}),
            }
        },
    },
    components={"schemas": {"Doc": RECORD}},
)


# -- operations -------------------------------------------------------------------------


async def test_each_operation_becomes_an_endpoint_named_by_operation_id() -> None:
    spec, _, _ = await build({DOC_URL: SEARCH})
    assert [e.name for e in spec.endpoints] == ["search", "get_material", "create_material"]


async def test_get_is_read_only_and_post_is_not() -> None:
    spec, _, _ = await build({DOC_URL: SEARCH})
    assert {e.name: e.read_only for e in spec.endpoints} == {
        "search": True,
        "get_material": True,
        "create_material": False,
    }


async def test_read_only_option_overrides_per_operation() -> None:
    spec, _, _ = await build({DOC_URL: SEARCH}, read_only={"search": None})
    assert spec.endpoint("search").read_only is None  # type: ignore[union-attr]


async def test_operation_ids_are_sanitised_and_missing_ones_derived() -> None:
    doc = document(
        {
            "/a b/{x}": {"get": {"operationId": "get-user.by id", "responses": {}}},
            "/users/list": {"get": {"responses": {}}},
        }
    )
    spec, _, _ = await build({DOC_URL: doc})
    assert [e.name for e in spec.endpoints] == ["get_user_by_id", "get_users_list"]


async def test_operations_option_picks_a_subset() -> None:
    spec, _, _ = await build({DOC_URL: SEARCH}, operations=["search"])
    assert [e.name for e in spec.endpoints] == ["search"]


async def test_operations_option_naming_an_unknown_operation_is_refused() -> None:
    with pytest.raises(RegistrationError, match="unknown operation"):
        await build({DOC_URL: SEARCH}, operations=["serach"])


async def test_per_operation_options_naming_an_unknown_operation_are_refused() -> None:
    with pytest.raises(RegistrationError, match=r"read_only= names unknown operation\(s\) \['serach'\]"):
        await build({DOC_URL: SEARCH}, read_only={"serach": False})


async def test_unknown_options_are_refused() -> None:
    with pytest.raises(RegistrationError, match="unknown option"):
        await build({DOC_URL: SEARCH}, projetcion=None)


# -- arguments --------------------------------------------------------------------------


async def test_parameters_become_a_closed_input_schema_over_their_names() -> None:
    spec, _, _ = await build({DOC_URL: SEARCH})
    schema = spec.endpoint("get_material").input_schema  # type: ignore[union-attr]
    # a path parameter notes the segment before it (the kind of subject its value names)
    assert schema["properties"] == {"material_id": {"type": "string", "x-path-segment": "materials"}}
    assert schema["required"] == ["material_id"]
    assert schema["additionalProperties"] is False


async def test_the_projection_parameter_is_not_an_argument() -> None:
    spec, _, _ = await build({DOC_URL: SEARCH}, projection=ServerProjectionSpec(parameter="_fields"))
    search = spec.endpoint("search")
    assert search is not None
    assert set(search.input_schema["properties"]) == {"formula", "_limit"}
    assert search.projection is not None and search.projection.parameter == "_fields"
    assert spec.endpoint("create_material").projection is None  # type: ignore[union-attr]


async def test_header_parameters_supplied_by_secret_headers_are_not_arguments() -> None:
    doc = document({"/x": get("x", parameters=[param("X-Api-Key", "header"), param("X-Trace", "header")])})
    spec, _, _ = await build({DOC_URL: doc}, headers={"x-api-key": KEY})
    assert set(spec.endpoints[0].input_schema["properties"]) == {"X-Trace"}


async def test_openapi_30_nullable_becomes_a_null_type() -> None:
    schema = {"type": "integer", "nullable": True, "minimum": 0, "exclusiveMinimum": True}
    doc = document({"/x": get("x", parameters=[param("n", schema=schema)])}, version="3.0.3")
    spec, _, _ = await build({DOC_URL: doc})
    assert spec.endpoints[0].input_schema["properties"]["n"] == {
        "type": ["integer", "null"],
        "exclusiveMinimum": 0,
    }


async def test_openapi_30_nullable_reference_becomes_any_of_null() -> None:
    doc = document(
        {
            "/x": get(
                "x",
                parameters=[
                    param("n", schema={"allOf": [{"$ref": "#/components/schemas/N"}], "nullable": True})
                ],
            )
        },
        version="3.0.0",
        components={"schemas": {"N": {"type": "string"}}},
    )
    spec, _, _ = await build({DOC_URL: doc})
    assert spec.endpoints[0].input_schema["properties"]["n"] == {
        "anyOf": [{"allOf": [{"type": "string"}]}, {"type": "null"}]
    }


async def test_body_properties_of_a_post_become_arguments() -> None:
    spec, _, _ = await build({DOC_URL: SEARCH})
    schema = spec.endpoint("create_material").input_schema  # type: ignore[union-attr]
    assert set(schema["properties"]) == {"material_id", "band_gap"}


# -- references -------------------------------------------------------------------------


async def test_a_ref_cycle_is_refused_not_followed_forever() -> None:
    doc = document(
        {"/x": get("x", schema={"$ref": "#/components/schemas/A"})},
        components={
            "schemas": {"A": {"$ref": "#/components/schemas/B"}, "B": {"$ref": "#/components/schemas/A"}}
        },
    )
    with pytest.raises(RegistrationError, match=r"\$ref cycle: /components/schemas/A -> .*B -> .*A"):
        await build({DOC_URL: doc})


async def test_a_recursive_parameter_schema_is_inlined_once_where_it_recurs_summarised() -> None:
    node = {"type": "object", "properties": {"child": {"$ref": "#/components/schemas/Node"}}}
    doc = document(
        {"/x": get("x", parameters=[param("tree", schema={"$ref": "#/components/schemas/Node"})])},
        components={"schemas": {"Node": node}},
    )
    spec, _, _ = await build({DOC_URL: doc})
    endpoint = spec.endpoint("x")
    assert endpoint is not None
    tree = endpoint.input_schema["properties"]["tree"]
    assert tree["properties"]["child"] == {"type": "object"}


async def test_a_recursive_record_field_keeps_the_field_without_a_schema() -> None:
    node = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "parent": {"$ref": "#/components/schemas/Node"}},
    }
    doc = document(
        {"/x": get("x", schema={"type": "array", "items": {"$ref": "#/components/schemas/Node"}})},
        components={"schemas": {"Node": node}},
    )
    spec, _, _ = await build({DOC_URL: doc})
    fields = {f.name: f for f in spec.endpoints[0].fields}
    assert fields["parent"].json_schema is None
    assert fields["name"].json_schema == {"type": "string"}


async def test_a_reference_to_a_missing_document_is_refused() -> None:
    doc = document({"/x": get("x", schema={"$ref": "other.json#/Doc"})})
    with pytest.raises(RegistrationError, match="cannot resolve"):
        await build({DOC_URL: doc})


# -- records and fields -----------------------------------------------------------------


async def test_one_array_of_objects_property_holds_the_records() -> None:
    spec, _, _ = await build({DOC_URL: SEARCH})
    search = spec.endpoint("search")
    assert search is not None
    assert search.records_path == ["data"]
    assert [f.name for f in search.fields] == ["material_id", "band_gap"]
    assert search.fields[1].description == "Gap (eV)"


async def test_an_array_response_holds_records_at_the_root() -> None:
    doc = document({"/x": get("x", schema={"type": "array", "items": RECORD})})
    spec, _, _ = await build({DOC_URL: doc})
    assert spec.endpoints[0].records_path is None
    assert [f.name for f in spec.endpoints[0].fields] == ["material_id", "band_gap"]


async def test_a_nullable_31_envelope_is_unwrapped() -> None:
    envelope = {"anyOf": [{"type": "null"}, ENVELOPE]}
    doc = document({"/x": get("x", schema=envelope)}, components={"schemas": {"Doc": RECORD}})
    spec, _, _ = await build({DOC_URL: doc})
    assert spec.endpoints[0].records_path == ["data"]


async def test_an_object_response_is_one_record() -> None:
    spec, _, _ = await build({DOC_URL: SEARCH})
    created = spec.endpoint("create_material")
    assert created is not None
    assert created.records_path is None
    assert [f.name for f in created.fields] == ["material_id", "band_gap"]


async def test_fields_option_overrides_by_name_and_adds() -> None:
    extra = FieldSpec(name="formula", path=["formula_pretty"], aliases=["chemical formula"])
    gap = FieldSpec(name="band_gap", aliases=["bandgap"])
    spec, _, _ = await build(
        {DOC_URL: SEARCH}, fields=[gap, extra], projection=ServerProjectionSpec(parameter="_fields")
    )
    search = spec.endpoint("search")
    assert search is not None
    assert search.field("band_gap") == gap
    assert search.field("formula") == extra.model_copy(update={"label": True})  # a formula labels its record
    assert search.projection is not None and search.projection.field_map == {"formula": "formula_pretty"}


# -- documents and servers --------------------------------------------------------------


async def test_a_yaml_document_is_read() -> None:
    spec, _, _ = await build(
        {"http://api.test/openapi.yaml": yaml.safe_dump(SEARCH)}, url="http://api.test/openapi.yaml"
    )
    assert spec.endpoint("search") is not None


async def test_missing_servers_send_requests_to_the_document_origin() -> None:
    spec, invoker, api = await build(
        {"http://api.test/docs/openapi.json": SEARCH}, url="http://api.test/docs/openapi.json"
    )
    await invoker(call(spec, "search", {"formula": "Si"}))
    assert str(api.requests[-1].url) == "http://api.test/materials/summary/?formula=Si"


async def test_relative_servers_resolve_against_the_document_url() -> None:
    doc = {**SEARCH, "servers": [{"url": "/api/{version}", "variables": {"version": {"default": "v2"}}}]}
    spec, invoker, api = await build({DOC_URL: doc})
    await invoker(call(spec, "search", {}))
    assert str(api.requests[-1].url) == "http://api.test/api/v2/materials/summary/"


async def test_the_first_server_on_the_document_origin_is_chosen() -> None:
    doc = {**SEARCH, "servers": [{"url": "https://prod.example.org"}, {"url": "http://api.test/v3"}]}
    spec, invoker, api = await build({DOC_URL: doc})
    await invoker(call(spec, "search", {}))
    assert str(api.requests[-1].url) == "http://api.test/v3/materials/summary/"


async def test_servers_on_another_host_are_refused_naming_the_host() -> None:
    doc = {**SEARCH, "servers": [{"url": "https://evil.example.org/api"}]}
    with pytest.raises(RegistrationError, match=r"evil\.example\.org"):
        await build({DOC_URL: doc})


async def test_base_url_names_the_api_and_keeps_secrets_off_the_document_host() -> None:
    docs = {"http://docs.test/openapi.json": {**SEARCH, "servers": [{"url": "https://evil.example.org"}]}}
    spec, invoker, api = await build(
        docs, url="http://docs.test/openapi.json", base_url="http://api.test/v1", headers={"x-api-key": KEY}
    )
    await invoker(call(spec, "search", {}))
    document_request, api_request = api.requests
    assert "x-api-key" not in document_request.headers
    assert api_request.headers["x-api-key"] == KEY
    assert str(api_request.url) == "http://api.test/v1/materials/summary/"


async def test_a_document_that_cannot_be_fetched_is_a_registration_error() -> None:
    with pytest.raises(RegistrationError, match=r"could not fetch.*404"):
        await build({}, url="http://api.test/missing.json")


async def test_a_document_that_is_neither_json_nor_yaml_is_refused() -> None:
    with pytest.raises(RegistrationError, match="neither JSON nor YAML"):
        await build({DOC_URL: b"{: ["})


async def test_a_yaml_alias_bomb_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(openapi_module, "MAX_DOCUMENT_NODES", 10_000)
    lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x"]']
    lines += [f"a{i}: &a{i} [{','.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
    with pytest.raises(RegistrationError, match="expands to more than 10000 nodes"):
        await build({DOC_URL: "\n".join(lines).encode()})


async def test_swagger_2_is_refused() -> None:
    with pytest.raises(RegistrationError, match=r"Swagger 2\.0"):
        await build({DOC_URL: {"swagger": "2.0", "paths": {}}})


# -- requests ---------------------------------------------------------------------------


async def test_arguments_and_projection_become_query_parameters() -> None:
    spec, invoker, api = await build({DOC_URL: SEARCH}, projection=ServerProjectionSpec(parameter="_fields"))
    await invoker(call(spec, "search", {"formula": "Si", "_limit": 5}, {"_fields": "band_gap"}))
    assert api.requests[-1].url.params.multi_items() == [
        ("formula", "Si"),
        ("_limit", "5"),
        ("_fields", "band_gap"),
    ]


async def test_list_booleans_and_nulls_are_serialised_as_openapi_does() -> None:
    parameters = [
        param("ids", schema={"type": "array"}),
        param("flag", schema={"type": "boolean"}),
        param("csv", schema={"type": "array"}, explode=False),
        param("skip"),
    ]
    spec, invoker, api = await build({DOC_URL: document({"/x": get("x", parameters=parameters)})})
    await invoker(call(spec, "x", {"ids": ["a", "b"], "flag": True, "csv": ["c", "d"], "skip": None}))
    assert api.requests[-1].url.params.multi_items() == [
        ("ids", "a"),
        ("ids", "b"),
        ("flag", "true"),
        ("csv", "c,d"),
    ]


async def test_path_arguments_cannot_traverse_or_change_host() -> None:
    spec, invoker, api = await build({DOC_URL: SEARCH})
    for value in ("../admin", "..", "@evil.test", "a?b=c#d"):
        await invoker(call(spec, "get_material", {"material_id": value}))
        request = api.requests[-1]
        assert request.url.host == "api.test"
        assert request.url.raw_path.startswith(b"/materials/")
        assert request.url.raw_path.count(b"/") == 2


async def test_body_arguments_are_sent_as_json() -> None:
    spec, invoker, api = await build({DOC_URL: SEARCH})
    await invoker(call(spec, "create_material", {"material_id": "mp-1", "band_gap": 1.5}))
    request = api.requests[-1]
    assert request.method == "POST"
    assert json.loads(request.content) == {"material_id": "mp-1", "band_gap": 1.5}


async def test_header_arguments_cannot_smuggle_line_breaks() -> None:
    doc = document({"/x": get("x", parameters=[param("X-Trace", "header")])})
    spec, invoker, api = await build({DOC_URL: doc})
    with pytest.raises(SchemaValidationError, match="printable ASCII"):
        await invoker(call(spec, "x", {"X-Trace": "a\r\nX-Api-Key: stolen"}))
    assert len(api.requests) == 1  # the document only


async def test_validate_output_sets_the_inlined_response_schema() -> None:
    spec, _, _ = await build({DOC_URL: SEARCH}, validate_output=True)
    output = spec.endpoint("search").output_schema  # type: ignore[union-attr]
    assert output is not None
    assert output["properties"]["data"]["items"] == RECORD


async def test_the_invoker_repr_shows_no_secret() -> None:
    _, invoker, _ = await build({DOC_URL: SEARCH}, headers={"x-api-key": KEY})
    assert isinstance(invoker, OpenApiInvoker)
    assert KEY not in repr(invoker) and KEY not in repr(invoker.target)
