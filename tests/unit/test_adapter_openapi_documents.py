"""OpenAPI documents as real APIs write them: envelopes, JSON:API, anyOf records, selection by
operation and tag, endpoint names and the texts ranking reads (httpx.MockTransport)."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import RegistrationError, ServerProjectionSpec
from tests.support.openapi import DOC_URL, build, document, get, ok

pytestmark = pytest.mark.anyio

ITEM = {"type": "object", "properties": {"id": {"type": "string"}, "title": {"type": "string"}}}
OTHER = {"type": "object", "properties": {"id": {"type": "string"}, "score": {"type": "number"}}}
ERROR = {"type": "object", "properties": {"status": {"type": "string"}, "detail": {"type": "string"}}}
LINK = {"type": "object", "properties": {"href": {"type": "string"}}}
RESOURCE = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "type": {"type": "string"},
        "attributes": {"$ref": "#/components/schemas/Attributes"},
        "links": {"anyOf": [LINK, {"type": "null"}]},
    },
}
ATTRIBUTES = {"type": "object", "properties": {"formula": {"type": "string"}, "nsites": {"type": "integer"}}}
COMPONENTS = {"schemas": {"Item": ITEM, "Resource": RESOURCE, "Attributes": ATTRIBUTES}}


def envelope(data: Any, **members: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"data": data, **members}}


def one(schema: Any, **extra: Any) -> dict[str, Any]:
    return document({"/x": get("x", schema=schema)}, components=COMPONENTS, **extra)


async def endpoint_of(doc: dict[str, Any], name: str = "x", **options: Any) -> Any:
    spec, _, _ = await build({DOC_URL: doc}, **options)
    found = spec.endpoint(name)
    assert found is not None
    return found


def tagged(*tags: str, operation_id: str, method: str = "get") -> dict[str, Any]:
    return {method: {"operationId": operation_id, "tags": list(tags), "responses": ok(ITEM)}}


TAGGED = document(
    {
        "/issues": tagged("issues", operation_id="listIssues"),
        "/issues/{n}": tagged("issues", operation_id="getIssue"),
        "/repos": tagged("repos", operation_id="listRepos"),
    }
)


# -- records ----------------------------------------------------------------------------


async def test_records_sit_at_data_when_data_is_an_any_of_of_two_arrays() -> None:
    data = {"anyOf": [{"type": "array", "items": {"$ref": "#/components/schemas/Item"}}, {"type": "array"}]}
    errors = {"anyOf": [{"type": "array", "items": ERROR}, {"type": "null"}]}
    found = await endpoint_of(one(envelope(data, errors=errors, meta={"type": "object"})))
    assert found.records_path == ["data"]
    assert [f.name for f in found.fields] == ["id", "title"]


async def test_errors_links_and_meta_never_hold_the_records() -> None:
    schema = {
        "type": "object",
        "properties": {
            "errors": {"type": "array", "items": ERROR},
            "links": {"type": "array", "items": LINK},
            "meta": {"type": "array", "items": LINK},
            "results": {"type": "array", "items": ITEM},
        },
    }
    found = await endpoint_of(one(schema))
    assert found.records_path == ["results"]


async def test_a_lone_object_at_data_is_one_record() -> None:
    found = await endpoint_of(
        one(envelope({"anyOf": [{"$ref": "#/components/schemas/Item"}, {"type": "null"}]}))
    )
    assert found.records_path == ["data"]
    assert [f.name for f in found.fields] == ["id", "title"]


async def test_a_usual_name_wins_among_several_arrays_of_objects() -> None:
    schema = {
        "type": "object",
        "properties": {"users": {"type": "array", "items": OTHER}, "items": {"type": "array", "items": ITEM}},
    }
    found = await endpoint_of(one(schema))
    assert found.records_path == ["items"]


async def test_json_api_attributes_are_fields_read_under_attributes() -> None:
    found = await endpoint_of(
        one(envelope({"type": "array", "items": {"$ref": "#/components/schemas/Resource"}}))
    )
    assert {f.name: f.path for f in found.fields} == {
        "id": ["id"],
        "type": ["type"],
        "formula": ["attributes", "formula"],
        "nsites": ["attributes", "nsites"],
    }


async def test_a_json_api_projection_asks_for_attributes_by_their_names() -> None:
    doc = one(envelope({"type": "array", "items": {"$ref": "#/components/schemas/Resource"}}))
    doc["paths"]["/x"]["get"]["parameters"] = [
        {"name": "fields", "in": "query", "schema": {"type": "string"}}
    ]
    found = await endpoint_of(doc, projection=ServerProjectionSpec(parameter="fields"))
    assert found.projection.field_map == {}  # every field is asked for by its own name


async def test_record_variants_give_the_union_of_their_properties() -> None:
    found = await endpoint_of(one({"type": "array", "items": {"oneOf": [ITEM, OTHER]}}))
    assert [f.name for f in found.fields] == ["id", "title", "score"]


async def test_all_of_parts_of_a_record_are_merged() -> None:
    record = {"allOf": [{"$ref": "#/components/schemas/Item"}, OTHER]}
    found = await endpoint_of(one({"type": "array", "items": record}))
    assert [f.name for f in found.fields] == ["id", "title", "score"]


async def test_a_field_schema_is_the_shape_of_its_value_without_annotations() -> None:
    record = {
        "type": "object",
        "properties": {"owner": {"type": "object", "description": "Who", "properties": {"login": ITEM}}},
    }
    found = await endpoint_of(one(record))
    owner = found.field("owner")
    assert owner.description == "Who"
    assert owner.json_schema == {"type": "object", "properties": {"login": {"type": "object"}}}


# -- several arrays: the rule of adapters/_openapi/records.py ----------------------------

MESSAGE = {"type": "object", "properties": {"level": {"type": "string"}, "text": {"type": "string"}}}
WIDE = {
    "type": "object",
    "properties": {"id": {"type": "string"}, "formula": {"type": "string"}, "mass": {"type": "number"}},
}


def arrays(**members: Any) -> dict[str, Any]:
    """An object schema: an item schema becomes an array of it, a type name a scalar."""
    properties = {
        name: {"type": member} if isinstance(member, str) else {"type": "array", "items": member}
        for name, member in members.items()
    }
    return {"type": "object", "properties": properties}


async def records_of(path: str, operation_id: str, schema: dict[str, Any], **options: Any) -> Any:
    return await endpoint_of(document({path: get(operation_id, schema=schema)}), operation_id, **options)


async def test_records_beside_a_messages_array_are_the_records() -> None:
    found = await records_of("/substances", "listSubstances", arrays(substances=ITEM, messages=MESSAGE))
    assert found.records_path == ["substances"]
    assert [f.name for f in found.fields] == ["id", "title"]


async def test_a_messages_array_never_holds_the_records_of_another_resource() -> None:
    schema = arrays(ids={"type": "string"}, messages=MESSAGE)
    found = await records_of("/substances", "listSubstances", schema)
    assert found.records_path is None
    assert {f.name for f in found.fields} == {"ids", "messages"}


async def test_side_names_are_recognised_in_any_case_and_separator() -> None:
    schema = arrays(validationErrors=MESSAGE, Debug_Notices=MESSAGE, samples=WIDE)
    found = await records_of("/query", "runQuery", schema)
    assert found.records_path == ["samples"]


async def test_the_array_named_like_the_paths_last_segment_holds_the_records() -> None:
    schema = arrays(summaries=WIDE, compounds=ITEM, total="integer")
    found = await records_of("/v2/compounds", "search", schema)
    assert found.records_path == ["compounds"]


async def test_a_singular_path_segment_names_a_plural_array() -> None:
    schema = arrays(summaries=WIDE, compounds=ITEM)
    found = await records_of("/compound/{cid}/compound", "lookup", schema)
    assert found.records_path == ["compounds"]


async def test_an_array_named_like_a_run_of_operation_id_words_holds_the_records() -> None:
    schema = arrays(artifacts=WIDE, workflow_runs=ITEM, total_count="integer")
    found = await records_of("/repos/{repo}/actions", "listWorkflowRunsForRepo", schema)
    assert found.records_path == ["workflow_runs"]


async def test_a_messages_listing_reads_its_records_from_messages() -> None:
    schema = arrays(messages=MESSAGE, nextPageToken="string")
    found = await records_of("/users/{user}/messages", "listMessages", schema)
    assert found.records_path == ["messages"]
    assert [f.name for f in found.fields] == ["level", "text"]


async def test_the_widest_array_holds_the_records_of_an_envelope_with_side_members() -> None:
    schema = arrays(facets=ITEM, hits=WIDE, warnings=MESSAGE)
    found = await records_of("/search", "search", schema)
    assert found.records_path == ["hits"]


async def test_the_first_of_equally_wide_arrays_holds_the_records() -> None:
    schema = arrays(left=ITEM, right=OTHER, warnings=MESSAGE)
    found = await records_of("/search", "search", schema)
    assert found.records_path == ["left"]


async def test_a_resource_with_several_arrays_inside_stays_one_record() -> None:
    schema = arrays(id="string", name="string", members=ITEM, projects=WIDE)
    found = await records_of("/teams/{team}", "getTeam", schema)
    assert found.records_path is None
    assert {f.name for f in found.fields} == {"id", "name", "members", "projects"}


async def test_peer_arrays_without_side_members_stay_one_record() -> None:
    found = await records_of("/reviewers", "reviewersOfPull", arrays(users=WIDE, teams=ITEM))
    assert found.records_path is None


async def test_records_path_overrides_the_array_named_like_the_resource() -> None:
    schema = arrays(summaries=WIDE, compounds=ITEM)
    found = await records_of("/compounds", "search", schema, records_path=["summaries"])
    assert found.records_path == ["summaries"]
    assert [f.name for f in found.fields] == ["id", "formula", "mass"]


# -- records_path= ----------------------------------------------------------------------


async def test_records_path_overrides_what_is_found_for_every_operation() -> None:
    found = await endpoint_of(one(envelope({"type": "array", "items": ITEM})), records_path=["data", "0"])
    assert found.records_path == ["data", "0"]


async def test_records_path_by_operation_reads_fields_from_that_place() -> None:
    schema = {
        "type": "object",
        "properties": {"page": {"type": "object", "properties": {"rows": {"type": "array", "items": ITEM}}}},
    }
    found = await endpoint_of(one(schema), records_path={"x": ["page", "rows"]})
    assert found.records_path == ["page", "rows"]
    assert [f.name for f in found.fields] == ["id", "title"]


async def test_records_path_naming_an_unknown_operation_is_a_short_error() -> None:
    with pytest.raises(RegistrationError, match=r"records_path= names unknown operation\(s\) \['y'\]"):
        await build({DOC_URL: one(ITEM)}, records_path={"y": ["data"]})


# -- operations= and tags= --------------------------------------------------------------


async def test_tags_select_the_operations_that_carry_one_of_them() -> None:
    spec, _, _ = await build({DOC_URL: TAGGED}, tags=["issues"])
    assert [e.name for e in spec.endpoints] == ["listIssues", "getIssue"]


async def test_operations_and_tags_together_keep_operations_satisfying_both() -> None:
    spec, _, _ = await build({DOC_URL: TAGGED}, tags="issues", operations=["listIssues", "listRepos"])
    assert [e.name for e in spec.endpoints] == ["listIssues"]


async def test_operations_and_tags_with_nothing_in_common_are_refused() -> None:
    with pytest.raises(RegistrationError, match="must satisfy both"):
        await build({DOC_URL: TAGGED}, tags=["repos"], operations=["listIssues"])


async def test_an_unknown_tag_is_refused_naming_the_closest() -> None:
    with pytest.raises(
        RegistrationError, match=r"tags= names unknown tag\(s\) \['isues'\]; did you mean 'issues'"
    ):
        await build({DOC_URL: TAGGED}, tags=["isues"])


async def test_an_unknown_operation_among_thousands_is_a_short_error() -> None:
    paths = {f"/things/{i}": get(f"getThing{i}") for i in range(3000)}
    with pytest.raises(RegistrationError) as caught:
        await build({DOC_URL: document(paths)}, operations=["getThing12x"])
    message = str(caught.value)
    assert len(message) < 500
    assert "'getThing12'" in message and "3000 known" in message


# -- names and texts --------------------------------------------------------------------


async def test_a_valid_operation_id_keeps_its_name_when_a_sanitised_one_would_take_it() -> None:
    doc = document({"/a": get("list-items"), "/b": get("list_items")})
    spec, _, _ = await build({DOC_URL: doc})
    assert [e.name for e in spec.endpoints] == ["list_items_2", "list_items"]


async def test_a_renamed_operation_shows_its_operation_id_in_the_description() -> None:
    doc = document({"/repos/{owner}/issues": get("issues/list-for-repo")})
    doc["paths"]["/repos/{owner}/issues"]["get"]["summary"] = "List repository issues"
    spec, _, _ = await build({DOC_URL: doc})
    assert spec.endpoints[0].name == "issues_list_for_repo"
    assert spec.endpoints[0].description == "operationId issues/list-for-repo: List repository issues."


async def test_a_renamed_operation_shows_its_operation_id_in_the_plan_explanation() -> None:
    from schemarouter_integrations import PlanRequest, SchemaRouter

    doc = document({"/repos/{owner}/issues": get("issues/list-for-repo")})
    spec, _, _ = await build({DOC_URL: doc})
    router = SchemaRouter()
    router.register(spec)
    plan = router.plan(PlanRequest(query="issues", fields=[], preferred_tools=[spec.name]))
    assert plan.primary is not None
    assert "operationId issues/list-for-repo" in plan.explain()


async def test_the_description_holds_summary_and_description_bounded() -> None:
    operation = {"operationId": "x", "summary": "Find things", "description": "<p>Long</p> " + "word " * 200}
    doc = document({"/x": {"get": {**operation, "responses": ok(ITEM)}}})
    found = await endpoint_of(doc)
    assert found.description.startswith("Find things. Long word word")
    assert len(found.description) <= 500


async def test_keywords_hold_the_operation_id_tags_and_literal_path_segments() -> None:
    doc = document({"/repos/{owner}/{repo}/issues": tagged("issues", "triage", operation_id="issues/list")})
    spec, _, _ = await build({DOC_URL: doc})
    assert spec.endpoints[0].keywords == ["issues/list", "issues", "triage", "repos"]
