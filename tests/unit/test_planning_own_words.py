"""A term that only the words of one tool's field read ("entities named" -> ``entityName``)
is read by each other candidate through its own fields: a knowledge graph's reader whose
records hold ``entities`` answers "entities named Si" without needing ``entityName``."""

from __future__ import annotations

from schemarouter_integrations import EndpointSpec, FieldSpec, PlanRequest, SchemaRouter, ToolSpec

NAMES = {"type": "object", "properties": {"names": {"type": "array", "items": {"type": "string"}}}}


def graph_router(*, observations_read_only: bool | None) -> SchemaRouter:
    router = SchemaRouter()
    endpoints = [
        EndpointSpec(
            name="add_observations",
            description="Add observations to existing entities.",
            read_only=observations_read_only,
            input_schema=NAMES,
            fields=[FieldSpec(name="entityName"), FieldSpec(name="addedObservations")],
        ),
        EndpointSpec(
            name="open_nodes",
            description="Open specific nodes of the graph by their names.",
            read_only=True,
            input_schema=NAMES,
            fields=[FieldSpec(name="entities"), FieldSpec(name="relations")],
        ),
    ]
    router.register(ToolSpec(name="memory", provider="graph", endpoints=endpoints))
    return router


def test_entities_named_si_is_read_by_the_readers_own_fields() -> None:
    plan = graph_router(observations_read_only=None).plan(
        PlanRequest(query="entities named Si", arguments={"names": ["Si"]})
    )

    assert plan.primary is not None and plan.primary.endpoint == "open_nodes"
    assert plan.need == ["entities"]
    assert plan.primary.selected_fields == ["entities"]


def test_the_route_serving_the_terms_own_field_still_ranks_first() -> None:
    plan = graph_router(observations_read_only=True).plan(
        PlanRequest(query="entities named Si", arguments={"names": ["Si"]})
    )

    assert plan.primary is not None and plan.primary.endpoint == "add_observations"
    assert plan.need == ["entityName"]


def test_a_term_named_exactly_is_not_read_word_by_word() -> None:
    router = SchemaRouter()
    fields = [[FieldSpec(name="band_gap")], [FieldSpec(name="band")]]
    endpoints = [
        EndpointSpec(name=f"search_{i}", read_only=True, input_schema=NAMES, fields=f)
        for i, f in enumerate(fields)
    ]
    router.register(ToolSpec(name="lab", endpoints=endpoints))

    plan = router.plan(PlanRequest(query="band gap", arguments={"names": ["Si"]}))

    assert plan.primary is not None and plan.primary.endpoint == "search_0"
    reasons = {r.endpoint: r.reason for r in plan.rejected}
    assert "exposes no field for 'band_gap'" in reasons["search_1"]
