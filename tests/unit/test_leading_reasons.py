"""Reasons that lead: rejections closest to an answer come first, grouped by reason."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import (
    EndpointSpec,
    FieldSpec,
    NoRouteError,
    PlanRequest,
    SchemaRouter,
    ServerProjectionSpec,
    ToolSpec,
)
from schemarouter_integrations._framework import model_error_message

pytestmark = pytest.mark.anyio

LONG_FORMULA = {"type": "object", "properties": {"formula": {"type": "string", "minLength": 3}}}
FORMULA = {"type": "object", "properties": {"formula": {"type": "string"}}}
QUESTION = PlanRequest(query="band gap of Si", arguments={"formula": "Si"})


def operation(name: str, *fields: str, schema: dict[str, Any] = FORMULA) -> EndpointSpec:
    return EndpointSpec(
        name=name, read_only=True, input_schema=schema, fields=[FieldSpec(name=f) for f in fields]
    )


def document(*extra: EndpointSpec, others: int = 30) -> SchemaRouter:
    """One tool like a large API document: *others* operations about other things, then *extra*."""
    endpoints = [operation(f"get_thing_{i:02d}", f"thing_{i:02d}") for i in range(others)]
    router = SchemaRouter()
    router.register(ToolSpec(name="api", provider="lab", endpoints=[*endpoints, *extra]))
    return router


def too_short() -> SchemaRouter:
    router = document(operation("search_gaps", "band_gap", schema=LONG_FORMULA))

    async def never(call: object) -> object:  # pragma: no cover - planning refuses first
        raise AssertionError("not called")

    router.bind("api", never)
    return router


def test_an_argument_failing_on_a_route_that_serves_the_need_leads_the_rejections() -> None:
    plan = too_short().plan(QUESTION)
    assert plan.primary is None
    first = plan.rejected[0]
    assert first.access_path == "api.search_gaps"
    assert "arguments do not fit its input schema" in first.reason


def test_no_route_error_names_the_argument_problem_before_the_routes_without_the_field() -> None:
    with pytest.raises(NoRouteError) as caught:
        too_short().invoke_sync(QUESTION)
    message = str(caught.value)
    assert "api.search_gaps: arguments do not fit its input schema" in message
    assert message.index("api.search_gaps") < message.index("expose no field")


def test_the_model_reads_the_argument_problem_first() -> None:
    with pytest.raises(NoRouteError) as caught:
        too_short().invoke_sync(QUESTION)
    text = model_error_message(caught.value)
    assert text is not None and "too short" in text.split("expose no field")[0]


def test_rejections_sharing_a_reason_are_one_group_in_explain() -> None:
    text = too_short().plan(QUESTION).explain()
    assert "30 endpoints expose no field for 'band_gap' (no matching semantic id, name or alias)" in text
    assert "api.get_thing_00, api.get_thing_01, api.get_thing_02 and 27 more" in text


def test_no_route_error_groups_the_routes_without_the_field() -> None:
    with pytest.raises(NoRouteError) as caught:
        too_short().invoke_sync(QUESTION)
    assert "30 endpoints expose no field for 'band_gap'" in str(caught.value)


def test_explain_of_a_large_document_is_a_summary_and_grouped_rejections() -> None:
    router = document(
        operation("search_gaps", "band_gap"), operation("search_more_gaps", "band_gap"), others=32
    )
    lines = router.plan(QUESTION).explain().splitlines()
    assert len(lines) <= 8
    assert lines[-2].startswith("  api.search_more_gaps: fallback is disabled")
    assert lines[-1].startswith("  32 endpoints expose no field for 'band_gap'")


def test_verbose_explain_lists_every_rejection_on_its_own_line() -> None:
    text = too_short().plan(QUESTION).explain(verbose=True)
    assert sum(1 for line in text.splitlines() if line.startswith("  api.get_thing_")) == 30


def test_explain_shows_a_bounded_number_of_groups() -> None:
    endpoints = [
        operation(f"op_{i:02d}", "band_gap", schema={**LONG_FORMULA, "title": str(i)}) for i in range(3)
    ]
    refusing = [
        operation(
            f"strict_{i:02d}",
            "band_gap",
            schema={"type": "object", "properties": {"formula": {}, f"x{i}": {}}, "required": [f"x{i}"]},
        )
        for i in range(12)
    ]
    text = document(*endpoints, *refusing).plan(QUESTION).explain()
    assert "more in" in text.splitlines()[-1]
    assert len(text.splitlines()) <= 16


def test_routes_lacking_less_of_the_need_come_first_among_those_that_do_not_serve_it() -> None:
    router = document(operation("gaps_only", "band_gap"), operation("all", "band_gap", "density"), others=3)
    plan = router.plan(PlanRequest(query="band gap and density of Si", arguments={"formula": "Si"}))
    assert [r.access_path for r in plan.rejected][:1] == ["api.gaps_only"]
    assert plan.rejected[0].reason.startswith("exposes no field for 'density'")


def test_a_value_to_fix_comes_before_an_argument_the_route_does_not_take() -> None:
    projecting = EndpointSpec(
        name="ranked_first",
        read_only=True,
        input_schema={"type": "object", "properties": {"material": {"type": "string"}}},
        fields=[FieldSpec(name="band_gap")],
        projection=ServerProjectionSpec(parameter="fields"),
    )
    router = document(projecting, operation("search_gaps", "band_gap", schema=LONG_FORMULA), others=2)
    plan = router.plan(QUESTION)
    assert [r.access_path for r in plan.rejected][:2] == ["api.search_gaps", "api.ranked_first"]


def test_a_route_in_cooldown_comes_before_one_refusing_the_arguments() -> None:
    router = document(
        operation("search_gaps", "band_gap", schema=LONG_FORMULA), operation("cooling", "band_gap"), others=2
    )
    router.mark_access_unavailable("api", "cooling", seconds=30)
    assert [r.access_path for r in router.plan(QUESTION).rejected][:2] == ["api.cooling", "api.search_gaps"]
