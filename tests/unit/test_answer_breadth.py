"""How wide an answer is: the terms that say which record is meant or name the records do not
narrow the fields returned; a partial answer carries the fields whose names share the missing
term's words; a sorted answer shows the field it is sorted by."""

from __future__ import annotations

from typing import Any

from schemarouter_integrations import EndpointSpec, FieldSpec, PlanRequest, SchemaRouter, ToolSpec


def endpoint(
    name: str, *fields: FieldSpec, takes: tuple[str, ...] = ("id",), description: str = ""
) -> EndpointSpec:
    schema = {"type": "object", "properties": {n: {"type": "string"} for n in takes}}
    return EndpointSpec(
        name=name, read_only=True, input_schema=schema, fields=list(fields), description=description
    )


def router_of(*endpoints: EndpointSpec) -> SchemaRouter:
    router = SchemaRouter()
    router.register(ToolSpec(name="api", provider="api", endpoints=list(endpoints)))
    return router


def selected(router: SchemaRouter, query: str, **arguments: Any) -> list[str]:
    plan = router.plan(PlanRequest(query=query, arguments=arguments))
    assert plan.primary is not None
    return plan.primary.selected_fields


DOI = endpoint(
    "get_work",
    FieldSpec("doi", identity=True),
    FieldSpec("titles"),
    FieldSpec("publisher"),
    FieldSpec("rightsList"),
    description="Get one work by its identifier.",
)


def test_a_term_naming_the_subject_before_its_value_selects_the_whole_record() -> None:
    fields = selected(router_of(DOI), "metadata of DOI 10.5061/dryad.8515", id="10.5061/dryad.8515")
    assert set(fields) == {"doi", "titles", "publisher", "rightsList"}


def test_the_same_term_asked_for_beside_the_value_still_narrows() -> None:
    fields = selected(router_of(DOI), "doi and publisher of work 10.5061/dryad.8515", id="10.5061/dryad.8515")
    assert fields == ["doi", "publisher"]


def test_a_term_naming_the_records_selects_the_whole_record() -> None:
    played = endpoint(
        "get_recently_played",
        FieldSpec("played_at"),
        FieldSpec("track"),
        FieldSpec("context"),
        takes=("limit",),
        description="Get Recently Played Tracks.",
    )
    assert set(selected(router_of(played), "recently played tracks")) == {"played_at", "track", "context"}


def test_a_partial_answer_carries_the_fields_sharing_the_missing_terms_words() -> None:
    task = endpoint("get_task", FieldSpec("gid", identity=True), FieldSpec("assignee"), FieldSpec("due_on"))
    goal = endpoint("get_goal", FieldSpec("due_date"), FieldSpec("owner"), takes=("goal",))
    fields = selected(router_of(task, goal), "due date and assignee of task 1204", id="1204")
    assert {"assignee", "due_on"} <= set(fields)


def test_a_partial_answer_adds_nothing_when_no_field_shares_the_missing_words() -> None:
    task = endpoint("get_task", FieldSpec("gid", identity=True), FieldSpec("assignee"), FieldSpec("notes"))
    goal = endpoint("get_goal", FieldSpec("due_date"), FieldSpec("owner"), takes=("goal",))
    fields = selected(router_of(task, goal), "due date and assignee of task 1204", id="1204")
    assert fields == ["assignee", "gid"]


def test_a_sort_argument_selects_the_field_it_orders_by() -> None:
    works = endpoint(
        "list_works",
        FieldSpec("id", identity=True),
        FieldSpec("dates"),
        FieldSpec("created"),
        takes=("sort",),
    )
    assert "created" in selected(router_of(works), "dates of the works", sort="-created")


def test_the_whole_record_leaves_out_the_fields_nested_in_another_field() -> None:
    latest = endpoint(
        "get_latest",
        FieldSpec("meta"),
        FieldSpec("meta.found", path=["meta", "found"]),
        FieldSpec("results"),
        takes=("city",),
        description="Latest readings.",
    )
    assert selected(router_of(latest), "latest readings", city="Delhi") == ["meta", "results"]
