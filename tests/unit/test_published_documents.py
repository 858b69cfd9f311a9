"""Documents as publishers write them: a flaw in one operation leaves that operation out and
registers the rest; numbers and booleans written as strings read as what they mean. On the
real TMDB and Spotify documents RestBench registers (httpx.MockTransport)."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from schemarouter_integrations import PlanRequest, RegistrationError, SchemaRouter
from schemarouter_integrations._contracts.coercion import coerced_arguments
from tests.support.openapi import DOC_URL, FakeApi, build, document, get, ok, param
from tests.support.restbench import operation_labels, restbench_document

pytestmark = pytest.mark.anyio

API = "http://api.test/3"
TRENDING = "GET_trending-media_type-time_window"
ITEM = {"type": "object", "properties": {"id": {"type": "string"}, "title": {"type": "string"}}}


async def test_tmdb_registers_every_operation_but_the_one_whose_property_has_no_name() -> None:
    tmdb = restbench_document("tmdb")
    spec, invoker, _ = await build({DOC_URL: tmdb}, base_url=API)
    labels = operation_labels(tmdb)
    assert len(labels) == 54
    registered = {e.name for e in spec.endpoints}
    assert len(registered) == 53
    assert set(invoker.left_out) == {TRENDING}
    assert "''" in invoker.left_out[TRENDING]


async def test_spotify_registers_all_its_operations() -> None:
    spotify = restbench_document("spotify")
    spec, invoker, _ = await build({DOC_URL: spotify}, base_url=API)
    assert len(spec.endpoints) == len(operation_labels(spotify)) == 40
    assert invoker.left_out == {}


async def test_spotifys_numbers_written_as_strings_are_numbers() -> None:
    spec, _, _ = await build({DOC_URL: restbench_document("spotify")}, base_url=API)
    tracks = spec.endpoint("get_an_albums_tracks")
    assert tracks is not None
    limit = tracks.input_schema["properties"]["limit"]
    assert limit.get("maximum", limit.get("anyOf", [{}])[0].get("maximum")) == 50


async def test_spotifys_required_true_written_as_a_string_makes_the_parameter_required() -> None:
    spec, _, _ = await build({DOC_URL: restbench_document("spotify")}, base_url=API)
    save = spec.endpoint("save_albums_user")  # its `ids` says required: "true"
    assert save is not None
    assert "ids" in save.input_schema.get("required", [])


async def test_a_left_out_operation_is_named_in_the_tool_description() -> None:
    spec, _, _ = await build({DOC_URL: restbench_document("tmdb")}, base_url=API)
    assert "Left out: GET_trending-media_type-time_window (response property ''" in spec.description


async def test_a_left_out_operation_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="schemarouter_integrations.adapters.openapi"):
        await build({DOC_URL: restbench_document("tmdb")}, base_url=API)
    assert any(TRENDING in r.getMessage() and "left out" in r.getMessage() for r in caplog.records)


async def test_inspect_names_the_operations_registration_left_out() -> None:
    api = FakeApi({DOC_URL: restbench_document("tmdb")})
    async with SchemaRouter(http_client=api.client) as router:
        await router.add_url(DOC_URL, kind="openapi", name="tmdb", base_url=API)
        snapshot = router.inspect().tools["tmdb"]
    assert list(snapshot.left_out) == [TRENDING]
    assert len(snapshot.endpoints) == 53


async def test_an_unresolvable_ref_leaves_its_operation_out_and_registers_the_rest() -> None:
    doc = document(
        {
            "/good": get("good", schema={"type": "array", "items": ITEM}),
            "/bad": get("bad", schema={"$ref": "#/components/schemas/Missing"}),
        }
    )
    spec, invoker, _ = await build({DOC_URL: doc})
    assert [e.name for e in spec.endpoints] == ["good"]
    assert "points at nothing" in invoker.left_out["bad"]


async def test_a_document_whose_every_operation_is_flawed_raises_a_registration_error() -> None:
    doc = document({"/bad": get("bad", schema={"type": "object", "properties": {"": ITEM}})})
    with pytest.raises(RegistrationError, match="cannot be a field"):
        await build({DOC_URL: doc})


async def test_an_application_option_error_still_refuses_the_whole_document() -> None:
    doc = document({"/good": get("good", schema={"type": "array", "items": ITEM})})
    with pytest.raises(RegistrationError, match="read_only="):
        await build({DOC_URL: doc}, read_only=True)


@pytest.mark.parametrize(
    ("written", "read"),
    [({"maximum": "50"}, {"maximum": 50}), ({"minimum": "0.5"}, {"minimum": 0.5}),
     ({"maxLength": "12"}, {"maxLength": 12}), ({"maximum": "2016-09-22"}, {})],
)  # fmt: skip
async def test_a_number_keyword_written_as_a_string_reads_as_the_number(
    written: dict[str, Any], read: dict[str, Any]
) -> None:
    schema = {"type": "integer", **written}
    doc = document(
        {"/x": get("x", parameters=[param("n", schema=schema)], schema={"type": "array", "items": ITEM})}
    )
    spec, _, _ = await build({DOC_URL: doc})
    endpoint = spec.endpoint("x")
    assert endpoint is not None
    shown = endpoint.input_schema["properties"]["n"]
    assert {k: v for k, v in shown.items() if k in ("maximum", "minimum", "maxLength")} == read


async def test_nullable_written_as_a_string_makes_the_value_nullable() -> None:
    schema = {"type": "string", "nullable": "true"}
    doc = document(
        {"/x": get("x", parameters=[param("q", schema=schema)], schema={"type": "array", "items": ITEM})},
        version="3.0.3",
    )
    spec, _, _ = await build({DOC_URL: doc})
    endpoint = spec.endpoint("x")
    assert endpoint is not None
    assert endpoint.input_schema["properties"]["q"]["type"] == ["string", "null"]


async def test_additional_properties_written_as_a_string_is_a_boolean() -> None:
    body = {"type": "object", "additionalProperties": "true"}
    op = {"operationId": "put_x", "requestBody": {"content": {"application/json": {"schema": body}}}}
    doc = document({"/x": {"put": op | {"responses": ok(ITEM)}}})
    spec, _, _ = await build({DOC_URL: doc})
    endpoint = spec.endpoint("put_x")
    assert endpoint is not None
    assert endpoint.input_schema["properties"]["body"]["additionalProperties"] is True


# -- whole objects given as $ref ----------------------------------------------------------

ROOT = "http://api.test/spec/openapi.json"


async def test_paths_given_as_a_ref_to_another_file_are_read() -> None:
    listing = get(
        "listItems", schema={"type": "array", "items": {"$ref": "../openapi.json#/components/schemas/Item"}}
    )
    documents = {
        ROOT: document(
            {"$ref": "./resources/index.json"}, components={"schemas": {"$ref": "./schemas.json"}}
        ),
        "http://api.test/spec/resources/index.json": {"/items": listing},
        "http://api.test/spec/schemas.json": {"Item": ITEM},
    }
    spec, _, _ = await build(documents, ROOT)
    endpoint = spec.endpoint("listItems")
    assert endpoint is not None
    assert [f.name for f in endpoint.fields] == ["id", "title"]


async def test_components_given_as_a_ref_inside_the_document_are_read() -> None:
    doc = document(
        {"$ref": "#/x-paths"},
        components={"schemas": {"$ref": "#/x-schemas"}, "responses": {"$ref": "#/x-responses"}},
    )
    doc["x-paths"] = {"/items": {"get": {"operationId": "listItems", "responses": {"$ref": "#/x-ok"}}}}
    doc["x-ok"] = {"200": {"$ref": "#/components/responses/Items"}}
    doc["x-responses"] = {"Items": {"description": "ok", "content": {"$ref": "#/x-content"}}}
    doc["x-content"] = {
        "application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Item"}}}
    }
    doc["x-schemas"] = {"Item": ITEM}
    spec, _, _ = await build({DOC_URL: doc})
    endpoint = spec.endpoint("listItems")
    assert endpoint is not None
    assert [f.name for f in endpoint.fields] == ["id", "title"]


async def test_a_pointer_through_a_ref_that_leads_back_to_itself_leaves_the_operation_out() -> None:
    doc = document(
        {
            "/good": get("good", schema={"type": "array", "items": ITEM}),
            "/bad": get("bad", schema={"$ref": "#/x-loop/Item"}),
        }
    )
    doc["x-loop"] = {"$ref": "#/x-loop/Item"}
    spec, invoker, _ = await build({DOC_URL: doc})
    assert [e.name for e in spec.endpoints] == ["good"]
    assert "cycle" in invoker.left_out["bad"]


# -- anyOf success responses -------------------------------------------------------------

RESULTS = {
    "type": "object",
    "properties": {
        "limit": {"type": "integer"},
        "offset": {"type": "integer"},
        "total": {"type": "integer"},
        "items": {"type": "array", "items": {"$ref": "#/components/schemas/Item"}},
    },
}


async def test_the_object_branch_of_an_anyof_answer_is_read_like_that_object() -> None:
    answer = {"anyOf": [{"$ref": "#/components/schemas/Results"}, {"type": "string"}]}
    doc = document(
        {"/search": get("search", schema=answer)}, components={"schemas": {"Results": RESULTS, "Item": ITEM}}
    )
    spec, _, _ = await build({DOC_URL: doc})
    endpoint = spec.endpoint("search")
    assert endpoint is not None
    assert endpoint.records_path == ["items"]
    assert [f.name for f in endpoint.fields] == ["id", "title"]


# -- documents on the application's disk ---------------------------------------------------

LISTING = {"/items": get("listItems", schema={"type": "array", "items": {"$ref": "./schemas.yaml#/Item"}})}
SCHEMAS_YAML = "Item:\n  type: object\n  properties:\n    id: {type: string}\n    title: {type: string}\n"


def written(folder: Any, **extra: Any) -> Any:
    (folder / "schemas.yaml").write_text(SCHEMAS_YAML)
    path = folder / "openapi.json"
    path.write_text(json.dumps(document(LISTING, **extra)))
    return path


async def test_a_local_path_registers_and_calls_go_to_base_url(tmp_path: Any) -> None:
    api = FakeApi({})
    api.answer = [{"id": "a1", "title": "first"}]
    async with SchemaRouter(http_client=api.client) as router:
        spec = await router.add_url(str(written(tmp_path)), kind="openapi", name="local", base_url=API)
        result = await router.invoke(PlanRequest(query="title of items", fields=["title"]))
    assert [f.name for f in spec.endpoints[0].fields] == ["id", "title"]
    assert str(api.requests[-1].url).startswith(f"{API}/items")
    assert result.records[0]["title"] == "first"


async def test_a_file_url_registers_with_the_api_its_servers_name(tmp_path: Any) -> None:
    path = written(
        tmp_path, servers=[{"url": "http://api.test/{version}", "variables": {"version": {"default": "v2"}}}]
    )
    spec, invoker, _ = await build({}, path.as_uri())
    assert spec.endpoint("listItems") is not None
    assert invoker.endpoints["listItems"].base == "http://api.test/v2"


async def test_a_local_document_naming_no_api_asks_for_base_url(tmp_path: Any) -> None:
    with pytest.raises(RegistrationError, match="base_url="):
        await build({}, str(written(tmp_path)))


async def test_a_missing_local_document_is_a_registration_error(tmp_path: Any) -> None:
    with pytest.raises(RegistrationError, match="could not read"):
        await build({}, str(tmp_path / "nowhere.json"), base_url=API)


# -- arguments in the declared type ----------------------------------------------------------

WORKS = document(
    {
        "/works": get(
            "listWorks",
            parameters=[param("published", schema={"type": "integer"}), param("query")],
            schema={"type": "array", "items": ITEM},
        )
    }
)


async def test_a_number_written_as_text_reaches_an_integer_parameter() -> None:
    api = FakeApi({DOC_URL: WORKS})
    api.answer = [{"id": "10.1/x", "title": "a work"}]
    async with SchemaRouter(http_client=api.client) as router:
        await router.add_url(DOC_URL, kind="openapi", name="datacite")
        request = PlanRequest(query="title of works", fields=["title"], arguments={"published": "2021"})
        plan = router.plan(request)
        result = await router.invoke(request)
    assert plan.primary is not None
    assert plan.primary.arguments == {"published": 2021}
    assert api.requests[-1].url.params["published"] == "2021"
    assert result.records[0]["title"] == "a work"


@pytest.mark.parametrize(
    ("declared", "given", "sent"),
    [({"type": "integer"}, "2021", 2021), ({"type": "number"}, "0.5", 0.5),
     ({"type": "boolean"}, "true", True), ({"type": "string"}, 2021, "2021"),
     ({"type": "array", "items": {"type": "integer"}}, ["1", "2"], [1, 2]),
     ({"anyOf": [{"type": "integer"}, {"type": "null"}]}, "7", 7)],
)  # fmt: skip
def test_scalar_arguments_are_read_as_the_declared_type(declared: Any, given: Any, sent: Any) -> None:
    schema = {"type": "object", "properties": {"x": declared}}
    assert coerced_arguments(schema, {"x": given}) == {"x": sent}


@pytest.mark.parametrize(
    ("declared", "given"),
    [({"type": "integer"}, "2021.0"), ({"type": "integer"}, "01"), ({"type": "boolean"}, "yes"),
     ({"type": "string"}, 0.5), ({"type": ["integer", "string"]}, "7")],
)  # fmt: skip
def test_a_value_that_would_change_is_left_as_it_is(declared: Any, given: Any) -> None:
    schema = {"type": "object", "properties": {"x": declared}}
    assert coerced_arguments(schema, {"x": given}) == {"x": given}


async def test_a_recursive_request_body_registers_its_operation() -> None:
    expression = {
        "type": "object",
        "properties": {
            "field": {"type": "string"},
            "and": {"type": "array", "items": {"$ref": "#/components/schemas/Expression"}},
        },
    }
    body = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Expression"}}}}
    op = {"operationId": "search", "requestBody": body, "responses": ok({"type": "array", "items": ITEM})}
    doc = document({"/search": {"post": op}}, components={"schemas": {"Expression": expression}})
    spec, invoker, _ = await build({DOC_URL: doc})
    search = spec.endpoint("search")
    assert search is not None and invoker.left_out == {}
    inner = search.input_schema["properties"]["and"]["items"]  # an expression, inlined once
    assert inner["properties"]["and"]["items"] == {"type": "object"}  # where it recurs: summarised
