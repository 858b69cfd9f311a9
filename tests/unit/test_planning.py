"""Planning scenarios of the design document, one behaviour per test."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import (
    FieldSpec,
    PlanRequest,
    SchemaRouter,
    ServerProjectionSpec,
    ToolSpec,
)
from tests.support.fakes import FakeClock
from tests.support.seed import FORMULA_INPUT, band_gap, elastic_router, endpoint, seed_router

SEED_REQUEST = PlanRequest(
    query="Si band gap",
    arguments={"formula": "Si"},
    preferred_tools=["mp_api"],
    fallback_scope="cross_provider",
    max_fallbacks=3,
)


def chain(plan: Any) -> list[tuple[str, str]]:
    return [(c.access_path, c.scope) for c in plan.calls]


def reasons(plan: Any) -> dict[str, str]:
    return {r.access_path: r.reason for r in plan.rejected}


def test_seed_chain_runs_same_provider_first_then_other_providers() -> None:
    router, _ = seed_router()
    plan = router.plan(SEED_REQUEST)
    assert plan.need == ["band_gap"]
    assert chain(plan) == [
        ("mp_api.search", "primary"),
        ("mp_optimade.search", "same_provider"),
        ("mp_python.search", "same_provider"),
        ("oqmd_api.search", "cross_provider"),
    ]
    assert plan.rejected == []


def test_each_call_carries_its_own_contract_and_projection() -> None:
    router, _ = seed_router()
    plan = router.plan(SEED_REQUEST)
    primary, optimade = plan.calls[0], plan.calls[1]
    assert primary.tool_fingerprint == router.tools["mp_api"].fingerprint
    assert optimade.endpoint_fingerprint == router.tools["mp_optimade"].endpoints[0].fingerprint
    assert primary.server_projection == {"_fields": "band_gap"}
    assert optimade.server_projection == {"response_fields": "_mp_band_gap"}
    assert plan.calls[2].server_projection == {}
    assert all(c.arguments == {"formula": "Si"} for c in plan.calls)
    assert all(c.selected_fields == ["band_gap"] for c in plan.calls)
    assert primary.evidence["band_gap"].field == "band_gap"
    assert primary.explanation.startswith("preferred tool")


def test_fallback_is_disabled_by_default() -> None:
    router, _ = seed_router()
    plan = router.plan(
        PlanRequest(query="Si band gap", arguments={"formula": "Si"}, preferred_tools=["mp_api"])
    )
    assert chain(plan) == [("mp_api.search", "primary")]
    assert "fallback is disabled" in reasons(plan)["oqmd_api.search"]


def test_same_provider_scope_keeps_other_providers_out() -> None:
    router, _ = seed_router()
    plan = router.plan(SEED_REQUEST.model_copy(update={"fallback_scope": "same_provider"}))
    assert [c.tool for c in plan.calls] == ["mp_api", "mp_optimade", "mp_python"]
    assert "differs from 'materials_project'" in reasons(plan)["oqmd_api.search"]


def test_max_fallbacks_bounds_the_chain() -> None:
    router, _ = seed_router()
    plan = router.plan(SEED_REQUEST.model_copy(update={"max_fallbacks": 1}))
    assert [c.tool for c in plan.calls] == ["mp_api", "mp_optimade"]
    assert reasons(plan)["mp_python.search"] == "chain is full (max_fallbacks=1)"
    assert reasons(plan)["oqmd_api.search"] == "chain is full (max_fallbacks=1)"


def test_max_fallbacks_outside_zero_to_eight_is_refused() -> None:
    with pytest.raises(ValueError):
        PlanRequest(query="x", max_fallbacks=9)


def test_untagged_primary_gets_no_fallback() -> None:
    router, _ = seed_router()
    router.register(ToolSpec(name="local_db", endpoints=[endpoint(fields=[band_gap()])]))
    plan = router.plan(SEED_REQUEST.model_copy(update={"preferred_tools": ("local_db",)}))
    assert chain(plan) == [("local_db.search", "primary")]
    assert "no explicit provider" in reasons(plan)["mp_api.search"]


def test_empty_provider_counts_as_untagged() -> None:
    router = SchemaRouter()
    router.register(ToolSpec(name="a", provider="  ", endpoints=[endpoint(fields=[band_gap()])]))
    router.register(ToolSpec(name="b", provider="  ", endpoints=[endpoint(fields=[band_gap()])]))
    plan = router.plan(SEED_REQUEST.model_copy(update={"preferred_tools": ("a",)}))
    assert [c.tool for c in plan.calls] == ["a"]


def test_untagged_candidates_are_not_cross_provider_fallbacks() -> None:
    router, _ = seed_router()
    router.register(ToolSpec(name="local_db", endpoints=[endpoint(fields=[band_gap()])]))
    plan = router.plan(SEED_REQUEST)
    assert "local_db" not in [c.tool for c in plan.calls]
    assert "no explicit provider" in reasons(plan)["local_db.search"]


@pytest.mark.parametrize("query", ["Si elastic modulus", "Si의 탄성계수", "youngs modulus of Si"])
def test_elastic_modulus_need_is_kept_across_fallback(query: str) -> None:
    plan = elastic_router().plan(
        PlanRequest(
            query=query,
            arguments={"formula": "Si"},
            preferred_tools=["provider_a_api"],
            fallback_scope="cross_provider",
        )
    )
    assert plan.need == ["elastic_modulus"]
    assert [c.tool for c in plan.calls] == ["provider_a_api", "provider_b_optimade"]
    fallback = plan.fallbacks[0]
    assert fallback.server_projection == {"response_fields": "_provider_b_elasticity"}
    assert fallback.selected_fields == ["elastic_modulus"]
    assert "exposes no field for 'elastic_modulus'" in reasons(plan)["provider_c_api.search"]


def test_korean_alias_is_recorded_as_evidence() -> None:
    plan = elastic_router().plan(PlanRequest(query="탄성계수", fallback_scope="cross_provider"))
    evidence = plan.primary.evidence["elastic_modulus"] if plan.primary else None
    assert evidence is not None
    assert (evidence.field, evidence.matched, evidence.match_kind) == ("elastic_modulus", "탄성계수", "alias")


def test_evidence_records_the_name_given_in_explicit_fields() -> None:
    plan = elastic_router().plan(PlanRequest("anything", fields=["Youngs-Modulus"]))
    evidence = plan.primary.evidence["elastic_modulus"] if plan.primary else None
    assert evidence is not None and (evidence.matched, evidence.match_kind) == ("youngs modulus", "alias")


def test_the_same_need_asked_in_other_words_records_the_other_words() -> None:
    router = elastic_router()
    first = router.plan(PlanRequest("Si elastic modulus", preferred_tools=["provider_a_api"]))
    second = router.plan(PlanRequest("Si의 탄성계수", preferred_tools=["provider_a_api"]))
    assert first.primary is not None and second.primary is not None
    assert first.primary.evidence["elastic_modulus"].match_kind == "semantic_id"
    assert second.primary.evidence["elastic_modulus"].match_kind == "alias"


def alias_router() -> SchemaRouter:
    """Two routes of one provider serving band_gap; only ``with_alias`` knows the alias "gap"."""
    router = SchemaRouter()
    for name, aliases in (("with_alias", ["gap"]), ("without_alias", [])):
        field = FieldSpec("band_gap", aliases=aliases)
        router.register(ToolSpec(name, provider="p", endpoints=[endpoint(fields=[field], input_schema={})]))
    return router


def test_a_route_without_the_surface_records_its_best_match_for_the_semantic_id() -> None:
    plan = alias_router().plan(PlanRequest("Si gap", fallback_scope="same_provider"))
    assert {c.tool: c.evidence["band_gap"].match_kind for c in plan.calls} == {
        "with_alias": "alias",
        "without_alias": "semantic_id",
    }


def test_recording_the_alias_does_not_lower_the_rank_of_a_route_that_serves_the_semantic_id() -> None:
    plan = alias_router().plan(PlanRequest("Si gap", fallback_scope="same_provider"))
    assert [c.tool for c in plan.calls] == ["with_alias", "without_alias"]  # equal scores: by name


def test_evidence_never_names_a_field_of_another_semantic_id() -> None:
    router = alias_router()
    fields = [FieldSpec("band_gap"), FieldSpec("gap", semantic_id="gap_other")]
    router.register(ToolSpec("both", provider="q", endpoints=[endpoint(fields=fields, input_schema={})]))
    plan = router.plan(PlanRequest("Si gap", preferred_tools=["both"]))
    assert plan.need == ["band_gap", "gap_other"] and plan.primary is not None
    assert plan.primary.selected_fields == ["band_gap", "gap"]
    assert {sid: e.field for sid, e in plan.primary.evidence.items()} == {
        "band_gap": "band_gap",
        "gap_other": "gap",
    }


def mixed_policy_router() -> SchemaRouter:
    router, _ = seed_router()
    router.register(
        ToolSpec(
            name="mp_legacy",
            provider="materials_project",
            endpoints=[endpoint(fields=[band_gap()], read_only=None)],
        )
    )
    router.register(
        ToolSpec(
            name="mp_writer",
            provider="materials_project",
            endpoints=[endpoint(fields=[band_gap()], read_only=False)],
        )
    )
    return router


def test_unclassified_and_mutating_routes_are_rejected_from_a_fallback_chain() -> None:
    plan = mixed_policy_router().plan(SEED_REQUEST)
    assert "mp_legacy" not in [c.tool for c in plan.calls]
    assert reasons(plan)["mp_legacy.search"].startswith("unclassified (read_only unset)")
    assert reasons(plan)["mp_writer.search"].startswith("mutating (read_only=False)")


def test_mutating_route_cannot_head_a_fallback_chain_even_when_preferred() -> None:
    plan = mixed_policy_router().plan(SEED_REQUEST.model_copy(update={"preferred_tools": ("mp_writer",)}))
    assert plan.primary is not None and plan.primary.tool == "mp_api"
    assert (
        "every call of an automatic fallback chain must be read_only=True"
        in reasons(plan)["mp_writer.search"]
    )


def test_without_fallback_only_a_preferred_route_may_be_unclassified() -> None:
    router = mixed_policy_router()
    chosen = router.plan(PlanRequest(query="band gap", preferred_tools=["mp_legacy"]))
    assert chosen.primary is not None and chosen.primary.tool == "mp_legacy"
    assert chosen.primary.read_only is None


def test_route_that_cannot_take_the_arguments_is_rejected() -> None:
    router, _ = seed_router()
    router.register(
        ToolSpec(
            name="oqmd_by_id",
            provider="oqmd",
            endpoints=[
                endpoint(
                    fields=[band_gap()],
                    input_schema={"type": "object", "properties": {"entry_id": {"type": "integer"}}},
                )
            ],
        )
    )
    plan = router.plan(SEED_REQUEST.model_copy(update={"max_fallbacks": 8}))
    assert "does not accept argument(s) ['formula']" in reasons(plan)["oqmd_by_id.search"]


def test_arguments_of_the_wrong_type_are_rejected_with_the_schema_message() -> None:
    router, _ = seed_router()
    plan = router.plan(SEED_REQUEST.model_copy(update={"arguments": {"formula": "Si", "limit": 0}}))
    assert plan.primary is None
    assert "limit: 0 is less than the minimum of 1" in reasons(plan)["mp_api.search"]


def test_route_missing_a_required_argument_is_rejected() -> None:
    router = SchemaRouter()
    schema = {
        "type": "object",
        "properties": {"material_id": {"type": "string"}},
        "required": ["material_id"],
    }
    router.register(
        ToolSpec(name="mp_get", provider="mp", endpoints=[endpoint(fields=[band_gap()], input_schema=schema)])
    )
    plan = router.plan(PlanRequest(query="band gap"))
    assert plan.primary is None
    assert "'material_id' is a required property" in reasons(plan)["mp_get.search"]


def test_preferred_tool_that_is_incompatible_gives_way_to_the_best_score() -> None:
    router, _ = seed_router()
    plan = router.plan(
        SEED_REQUEST.model_copy(update={"query": "Si bulk modulus", "preferred_tools": ("oqmd_api",)})
    )
    assert plan.primary is not None and plan.primary.tool == "mp_api"
    assert "exposes no field for 'bulk_modulus'" in reasons(plan)["oqmd_api.search"]


def test_explicit_fields_override_the_query() -> None:
    router, _ = seed_router()
    plan = router.plan(SEED_REQUEST.model_copy(update={"query": "anything", "fields": ("bulk modulus",)}))
    assert plan.need == ["bulk_modulus"]
    assert [c.tool for c in plan.calls] == ["mp_api"]


def test_plan_is_deterministic_whatever_the_registration_order() -> None:
    forward, _ = seed_router()
    backward = SchemaRouter()
    for name in reversed(list(forward.tools)):
        backward.register(forward.tools[name])
    one = forward.plan(SEED_REQUEST).model_dump()
    two = backward.plan(SEED_REQUEST).model_dump()
    assert one["primary"] == two["primary"] and one["fallbacks"] == two["fallbacks"]
    assert forward.plan(SEED_REQUEST).model_dump() == forward.plan(SEED_REQUEST).model_dump()


def test_route_in_cooldown_drops_out_and_returns_when_it_expires() -> None:
    clock = FakeClock()
    router, _ = seed_router(SchemaRouter(clock=clock))
    router.mark_access_unavailable("mp_api", "search", seconds=30)
    plan = router.plan(SEED_REQUEST)
    assert plan.primary is not None and plan.primary.tool == "mp_optimade"
    assert reasons(plan)["mp_api.search"] == "unavailable: in cooldown for another 30.0s"
    clock.advance(30)
    assert router.plan(SEED_REQUEST).primary.tool == "mp_api"  # type: ignore[union-attr]


def test_verbose_explain_prints_the_chain_and_every_rejection() -> None:
    router, _ = seed_router()
    text = router.plan(SEED_REQUEST.model_copy(update={"max_fallbacks": 1})).explain(verbose=True)
    assert "primary : mp_api.search [primary]" in text
    assert "fallback 1: mp_optimade.search [same_provider]" in text
    assert "oqmd_api.search: chain is full (max_fallbacks=1)" in text


def test_explain_groups_the_rejections_that_share_a_reason() -> None:
    router, _ = seed_router()
    text = router.plan(SEED_REQUEST.model_copy(update={"max_fallbacks": 1})).explain()
    assert "fallback 1: mp_optimade.search [same_provider]" in text
    assert "2 endpoints: chain is full (max_fallbacks=1): oqmd_api.search, mp_python.search" in text


def test_no_eligible_route_gives_a_plan_without_primary() -> None:
    router, _ = seed_router()
    plan = router.plan(SEED_REQUEST.model_copy(update={"fields": ("density",)}))
    assert plan.primary is None and plan.calls == []
    assert "exposes no field for 'density'" in reasons(plan)["mp_api.search"]


def test_input_schema_free_endpoint_still_refuses_to_drop_arguments() -> None:
    router = SchemaRouter()
    router.register(
        ToolSpec(name="free", provider="p", endpoints=[endpoint(fields=[band_gap()], input_schema={})])
    )
    assert router.plan(PlanRequest(query="band gap", arguments={"formula": "Si"})).primary is None
    assert router.plan(PlanRequest(query="band gap")).primary is not None


def test_formula_input_schema_fixture_is_strict() -> None:
    assert FORMULA_INPUT["additionalProperties"] is False


def test_plan_reflects_a_registry_change_at_once() -> None:
    router, _ = seed_router()
    request = SEED_REQUEST.model_copy(update={"preferred_tools": ()})
    before = router.plan(request)
    router.register(
        ToolSpec(
            name="aaa_cheap",
            provider="materials_project",
            endpoints=[
                endpoint(
                    fields=[band_gap()], cost_units=0.1, projection=ServerProjectionSpec(parameter="fields")
                )
            ],
        )
    )
    after = router.plan(request)
    assert before.primary is not None and after.primary is not None
    assert after.primary.tool == "aaa_cheap" != before.primary.tool


def test_argument_checks_are_remembered_per_argument_set() -> None:
    router, _ = seed_router()
    good = router.plan(SEED_REQUEST)
    bad = router.plan(SEED_REQUEST.model_copy(update={"arguments": {"formula": {"not": "a formula"}}}))
    assert good.primary is not None and bad.primary is None
    assert router.plan(SEED_REQUEST).primary is not None
