"""Argument names as evidence: when no route serving the question's words passes, the routes
taking every argument given (and needing no other) answer, ranked by their own words; a word
the question asks for ("X of Y") that they do not mention keeps the refusal."""

from __future__ import annotations

from typing import Any

from schemarouter_integrations import EndpointSpec, FieldSpec, PlanRequest, SchemaRouter, ToolSpec


def _input(*names: str, required: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {name: {"type": "string"} for name in names},
        "required": list(required or names),
        "additionalProperties": False,
    }


def _endpoint(
    name: str, description: str, keywords: list[str], arguments: dict[str, Any], *fields: str
) -> EndpointSpec:
    return EndpointSpec(
        name=name,
        description=description,
        keywords=keywords,
        input_schema=arguments,
        fields=[FieldSpec(name=f) for f in fields],
        read_only=True,
    )


def tracker_router() -> SchemaRouter:
    """A work tracker: stories name their ``task``; attachments and status updates are listed
    for a ``parent`` object (a task, a project)."""
    router = SchemaRouter()
    router.register(
        ToolSpec(
            name="tracker",
            provider="tracker",
            access_mode="openapi",
            endpoints=[
                _endpoint("getTask", "Get a task.", ["tasks"], _input("task_gid"), "name", "notes"),
                _endpoint("getStory", "Get a story.", ["stories"], _input("story_gid"), "text", "task"),
                _endpoint(
                    "getAttachmentsForObject",
                    "Get attachments from an object. Returns the attachments on the object.",
                    ["attachments"],
                    _input("parent"),
                    "name",
                    "download_url",
                ),
                _endpoint(
                    "getStatusesForObject",
                    "Get status updates from an object.",
                    ["status updates"],
                    _input("parent"),
                    "title",
                    "status_type",
                ),
            ],
        )
    )
    return router


def materials_router() -> SchemaRouter:
    """Three searches taking ``formula``: a broad summary and two specialised records."""
    router = SchemaRouter()
    formula = _input("formula", required=())
    router.register(
        ToolSpec(
            name="materials",
            provider="materials",
            access_mode="openapi",
            endpoints=[
                _endpoint(
                    "search_summary",
                    "Search material summaries.",
                    ["summary"],
                    formula,
                    "material_id",
                    "formula_pretty",
                    "band_gap",
                    "density",
                    "volume",
                    "crystal_system",
                ),
                _endpoint(
                    "search_alloys", "Search alloy pairs.", ["alloys"], formula, "alloy_pair", "pair_id"
                ),
                _endpoint(
                    "search_electrodes", "Search insertion electrodes.", ["electrodes"], formula, "battery_id"
                ),
            ],
        )
    )
    return router


def chosen(router: SchemaRouter, query: str, **arguments: object) -> str | None:
    plan = router.plan(PlanRequest(query=query, arguments=arguments))
    return plan.primary.endpoint if plan.primary is not None else None


def test_a_word_labelling_the_given_value_does_not_rule_out_the_route_taking_it() -> None:
    assert chosen(tracker_router(), "attachments on task 1204", parent="1204") == "getAttachmentsForObject"


def test_routes_taking_the_argument_rank_by_their_own_words() -> None:
    assert (
        chosen(tracker_router(), "status updates for project 1331", parent="1331") == "getStatusesForObject"
    )


def test_a_word_naming_nothing_is_no_refusal_when_the_question_writes_a_given_value() -> None:
    plan = materials_router().plan(
        PlanRequest(query="how many O2 allotropes are there", arguments={"formula": "O2"})
    )
    assert plan.primary is not None
    assert plan.primary.endpoint == "search_summary"  # no word tells them apart: the broadest record
    assert plan.unmatched == ["allotropes"]  # ("polymorphs", a class noun, names the subject: named.py)


def test_a_question_referring_back_to_the_given_value_is_about_it() -> None:
    assert chosen(materials_router(), "how many polymorphs do those have", formula="O2") == "search_summary"


def test_a_value_asked_for_that_no_route_mentions_keeps_the_refusal() -> None:
    plan = tracker_router().plan(PlanRequest(query="lyrics of task 1204", arguments={"parent": "1204"}))
    assert plan.primary is None
    assert "lyrics" in plan.unmatched


def test_arguments_the_question_does_not_write_are_context_not_evidence() -> None:
    plan = materials_router().plan(PlanRequest(query="melting point", arguments={"formula": "Si"}))
    assert plan.primary is None
    assert plan.unmatched == ["melting", "point"]


def genes_router() -> SchemaRouter:
    """A gene report by taxon and symbol (its id nested in ``gene``), and a gene by its id."""
    router = SchemaRouter()
    by_symbol = _input("symbols", "taxon")
    router.register(
        ToolSpec(
            name="genes",
            provider="genes",
            access_mode="openapi",
            endpoints=[
                _endpoint(
                    "gene_report_by_tax_and_symbol",
                    "Get a gene report by taxon and symbol.",
                    ["gene"],
                    by_symbol,
                    "gene.gene_id",
                    "gene.symbol",
                ),
                _endpoint(
                    "gene_by_id", "Get a gene by its id.", ["gene"], _input("gene_id"), "gene_id", "symbol"
                ),
            ],
        )
    )
    return router


def test_an_asked_word_a_nested_field_names_does_not_rule_out_the_route_taking_the_arguments() -> None:
    assert (
        chosen(genes_router(), "gene id of human TP53", symbols="TP53", taxon="human")
        == "gene_report_by_tax_and_symbol"
    )
