"""Partial answers: when no eligible route serves the whole need, the one serving the most of
it answers and the plan says what is missing."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import (
    EndpointSpec,
    FieldSpec,
    NoRouteError,
    PlanRequest,
    SchemaRouter,
    ToolCall,
    ToolSpec,
)
from schemarouter_integrations._framework import result_content

pytestmark = pytest.mark.anyio

FORMULA = {"type": "object", "properties": {"formula": {"type": "string"}}, "additionalProperties": False}
SI = {"formula": "Si"}


def field(name: str, *aliases: str, sid: str | None = None, description: str = "") -> FieldSpec:
    return FieldSpec(name=name, semantic_id=sid, aliases=list(aliases), description=description)


def tool(
    name: str, *fields: FieldSpec, provider: str | None = "lab", schema: dict[str, Any] = FORMULA
) -> ToolSpec:
    endpoint = EndpointSpec(name="search", read_only=True, input_schema=schema, fields=list(fields))
    return ToolSpec(name=name, provider=provider, endpoints=[endpoint])


def router_of(*tools: ToolSpec) -> SchemaRouter:
    router = SchemaRouter()
    for spec in tools:
        router.register(spec)
    return router


def summary(name: str = "summary", provider: str | None = "lab") -> ToolSpec:
    return tool(name, field("band_gap"), field("density"), field("formula"), provider=provider)


def elastic(name: str = "elastic", provider: str | None = "lab") -> ToolSpec:
    return tool(name, field("k_vrh", "bulk modulus", sid="bulk_modulus"), field("formula"), provider=provider)


THREE = "band gap, density and bulk modulus of Si"


def test_the_route_serving_most_of_the_need_answers_when_none_serves_all() -> None:
    plan = router_of(summary(), elastic()).plan(PlanRequest(query=THREE, arguments=SI))
    assert plan.primary is not None and plan.primary.tool == "summary"
    assert plan.primary.selected_fields == ["band_gap", "density"]


def test_missing_lists_the_semantic_ids_the_primary_does_not_serve() -> None:
    plan = router_of(summary(), elastic()).plan(PlanRequest(query=THREE, arguments=SI))
    assert plan.need == ["band_gap", "density", "bulk_modulus"]
    assert plan.missing == ["bulk_modulus"]


def test_a_route_serving_the_whole_need_leaves_nothing_missing() -> None:
    whole = tool("whole", field("band_gap"), field("density"), field("bulk_modulus", "bulk modulus"))
    plan = router_of(summary(), elastic(), whole).plan(PlanRequest(query=THREE, arguments=SI))
    assert plan.primary is not None and plan.primary.tool == "whole"
    assert plan.missing == []


def test_a_need_named_by_a_field_name_outweighs_one_read_from_a_description_word() -> None:
    optics = tool("optics", field("n", description="Refractive index"))
    gaps = tool("gaps", field("band_gap"))
    request = PlanRequest(
        query="band gap and refractive index of Si", arguments=SI, preferred_tools=["optics"]
    )
    plan = router_of(optics, gaps).plan(request)
    assert plan.need == ["band_gap", "n"]
    assert plan.primary is not None and plan.primary.tool == "gaps"
    assert plan.missing == ["n"]


def test_two_needs_read_from_descriptions_weigh_as_much_as_one_named_by_a_field() -> None:
    optics = tool(
        "optics", field("n", description="Refractive index"), field("eps", description="Dielectric constant")
    )
    gaps = tool("gaps", field("band_gap"))
    request = "band gap, refractive index and dielectric constant of Si"
    plan = router_of(optics, gaps).plan(PlanRequest(query=request, arguments=SI, preferred_tools=["optics"]))
    assert plan.primary is not None and plan.primary.tool == "optics"  # a tie: the preferred tool
    assert plan.missing == ["band_gap"]


def test_explicit_fields_get_a_partial_answer_too() -> None:
    request = PlanRequest(query="anything", arguments=SI, fields=["band_gap", "density", "k_vrh"])
    plan = router_of(summary(), elastic()).plan(request)
    assert plan.primary is not None and plan.primary.tool == "summary"
    assert plan.need == ["band_gap", "density", "bulk_modulus"]
    assert plan.missing == ["bulk_modulus"]


def test_an_explicit_field_no_route_knows_is_missing_from_a_partial_answer() -> None:
    request = PlanRequest(query="anything", arguments=SI, fields=["band_gap", "viscosity"])
    plan = router_of(summary()).plan(request)
    assert plan.primary is not None and plan.missing == ["viscosity"]


def test_no_route_serving_any_of_the_need_is_a_plan_without_primary() -> None:
    plan = router_of(summary(), elastic()).plan(PlanRequest(query="x", arguments=SI, fields=["viscosity"]))
    assert plan.primary is None
    assert plan.missing == []


def test_arguments_that_rule_every_route_out_are_a_plan_without_primary() -> None:
    plan = router_of(summary(), elastic()).plan(PlanRequest(query=THREE, arguments={"pressure": 3}))
    assert plan.primary is None
    assert {r.access_path for r in plan.rejected} == {"summary.search", "elastic.search"}


async def test_invoke_raises_no_route_when_arguments_rule_every_route_out() -> None:
    with pytest.raises(NoRouteError):
        await router_of(summary(), elastic()).invoke(PlanRequest(query=THREE, arguments={"pressure": 3}))


def test_a_whole_need_route_that_refuses_the_arguments_gives_way_to_a_partial_answer() -> None:
    strict = {"type": "object", "properties": {"formula": {"type": "string", "minLength": 3}}}
    whole = tool(
        "whole", field("band_gap"), field("density"), field("bulk_modulus", "bulk modulus"), schema=strict
    )
    plan = router_of(summary(), elastic(), whole).plan(PlanRequest(query=THREE, arguments=SI))
    assert plan.primary is not None and plan.primary.tool == "summary"
    assert plan.missing == ["bulk_modulus"]
    assert plan.rejected[0].access_path == "whole.search"
    assert "arguments do not fit its input schema" in plan.rejected[0].reason


def test_fallbacks_serve_what_the_primary_serves_of_the_need() -> None:
    router = router_of(
        summary("summary_a", provider="a"), summary("summary_b", provider="b"), elastic(provider="b")
    )
    plan = router.plan(PlanRequest(query=THREE, arguments=SI, fallback_scope="cross_provider"))
    assert [c.tool for c in plan.calls] == ["summary_a", "summary_b"]
    assert all(c.selected_fields == ["band_gap", "density"] for c in plan.calls)


def test_a_route_serving_another_part_of_the_need_is_no_fallback() -> None:
    gaps = tool("gaps", field("band_gap"), provider="a")
    moduli = tool("moduli", field("bulk_modulus", "bulk modulus"), provider="a")
    plan = router_of(gaps, moduli).plan(
        PlanRequest(query="band gap and bulk modulus of Si", arguments=SI, fallback_scope="same_provider")
    )
    assert plan.primary is not None and plan.fallbacks == []
    other = next(r for r in plan.rejected if r.access_path != plan.primary.access_path)
    assert other.reason.startswith("serves another part of the need")


def test_each_route_has_one_rejection_entry_in_a_partial_plan() -> None:
    router = router_of(summary(), elastic(), tool("other", field("volume")), summary("summary_2"))
    plan = router.plan(PlanRequest(query=THREE, arguments=SI))
    paths = [r.access_path for r in plan.rejected]
    assert sorted(paths) == ["elastic.search", "other.search", "summary_2.search"]
    assert plan.rejected_count() == len(paths)


def test_the_rejection_count_of_a_partial_plan_is_known_before_the_rejections_are_built() -> None:
    router = router_of(summary(), elastic(), tool("other", field("volume")), summary("summary_2"))
    plan = router.plan(PlanRequest(query=THREE, arguments=SI))
    assert plan.rejected_count() == 3
    assert len(plan.rejected) == 3


def test_a_partial_plan_is_the_same_when_planned_again() -> None:
    router = router_of(summary(), elastic())
    request = PlanRequest(query=THREE, arguments=SI)
    assert router.plan(request).model_dump() == router.plan(request).model_dump()


def test_explain_says_what_is_missing() -> None:
    text = router_of(summary(), elastic()).plan(PlanRequest(query=THREE, arguments=SI)).explain()
    assert "missing: bulk_modulus (a partial answer" in text
    assert "serves the most of the need" in text


def test_the_primary_call_explanation_names_what_it_lacks() -> None:
    plan = router_of(summary(), elastic()).plan(PlanRequest(query=THREE, arguments=SI))
    assert plan.primary is not None and "; missing bulk_modulus;" in plan.primary.explanation


async def test_the_model_reads_what_a_partial_answer_is_missing() -> None:
    router = router_of(summary(), elastic())

    async def answer(call: ToolCall) -> list[dict[str, Any]]:
        return [{"band_gap": 0.61, "density": 2.33, "formula": "Si"}]

    router.bind("summary", answer)
    text = result_content(await router.invoke(PlanRequest(query=THREE, arguments=SI)))
    lines = text.splitlines()
    assert lines[0] == "Answered by summary.search (lab)."
    assert lines[1] == "Records (1):"  # the answer first, then what it lacks
    assert lines[3].startswith(
        "Partial answer: no data source serves all of the request; missing: bulk_modulus."
    )
