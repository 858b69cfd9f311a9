"""Records name their subject: the identity and label fields (``FieldSpec(label=True)``, or a
field named formula / formula_pretty / name / title / display_name ...) come back beside the
needed fields of every call."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import EndpointSpec, FieldSpec, PlanRequest, SchemaRouter, ToolSpec
from schemarouter_integrations.adapters._fields import with_identity_defaults

pytestmark = pytest.mark.anyio
ROWS = [
    {"material_id": "mp-149", "formula_pretty": "Si", "compound": "silicon", "band_gap": 0.6, "density": 2.3},
    {"material_id": "mp-2534", "formula_pretty": "GaAs", "compound": "gallium arsenide", "band_gap": 1.5,
     "density": 5.3},
]  # fmt: skip


async def summary(material_id: str | None = None) -> list[dict[str, Any]]:
    """Materials summary."""
    return [dict(row) for row in ROWS]


def router_with(*fields: str | FieldSpec) -> SchemaRouter:
    router = SchemaRouter()
    router.add_callable(summary, name="mp", read_only=True, fields=list(fields))
    return router


async def test_a_field_marked_label_comes_back_beside_the_needed_field() -> None:
    router = router_with("material_id", "band_gap", "density", FieldSpec(name="compound", label=True))
    result = await router.invoke(PlanRequest(query="band gap", fields=["band_gap"]))
    assert result.records == [
        {"band_gap": 0.6, "material_id": "mp-149", "compound": "silicon"},
        {"band_gap": 1.5, "material_id": "mp-2534", "compound": "gallium arsenide"},
    ]


async def test_a_field_named_as_a_formula_is_a_label_by_default() -> None:
    router = router_with("material_id", "formula_pretty", "band_gap", "density")
    result = await router.invoke(PlanRequest(query="band gap", fields=["band_gap"]))
    assert [r.get("formula_pretty") for r in result.records] == ["Si", "GaAs"]
    assert all("density" not in r for r in result.records)


async def test_the_label_is_in_the_calls_selection_so_it_is_projected_upstream() -> None:
    router = router_with("material_id", "formula_pretty", "band_gap")
    plan = router.plan(PlanRequest(query="band gap", fields=["band_gap"]))
    assert "formula_pretty" in plan.primary.selected_fields


async def test_a_field_declared_not_a_label_stays_out() -> None:
    router = router_with("material_id", FieldSpec(name="formula_pretty", label=False), "band_gap")
    result = await router.invoke(PlanRequest(query="band gap", fields=["band_gap"]))
    assert all("formula_pretty" not in r for r in result.records)


def test_label_defaults_to_false_and_is_kept_when_given() -> None:
    assert FieldSpec(name="band_gap").label is False
    assert FieldSpec(name="compound", label=True).label is True


RECIPES = [
    {"paragraph": "CuO was ground with Li2CO3 ...", "product_formulas": ["Li2CuO2"], "furnace": "tube"},
]


async def recipes(keywords: str | None = None) -> list[dict[str, Any]]:
    """Synthesis recipes."""
    return [dict(row) for row in RECIPES]


async def test_a_record_with_no_label_named_field_is_named_by_its_fields_with_a_label_word() -> None:
    router = SchemaRouter()
    fields = ["paragraph", "product_formulas", "furnace"]
    router.add_callable(recipes, name="recipes", read_only=True, fields=fields)
    result = await router.invoke(PlanRequest(query="paragraph", fields=["paragraph"]))
    assert result.records == [{"paragraph": RECIPES[0]["paragraph"], "product_formulas": ["Li2CuO2"]}]


def test_an_object_field_with_a_label_word_names_no_subject() -> None:
    reaction = FieldSpec(name="reaction_formula", json_schema={"type": "object", "properties": {"left": {}}})
    words = FieldSpec(name="target_formulas", json_schema={"anyOf": [
        {"type": "array", "items": {"type": "string"}}, {"type": "null"}]})  # fmt: skip
    assert [f.label for f in with_identity_defaults([reaction, words])] == [False, True]


def test_a_label_word_asks_for_the_label_field_whose_name_holds_it() -> None:
    router = SchemaRouter()
    crystals = EndpointSpec(
        name="crystals", read_only=True,
        fields=[FieldSpec(name="id"), FieldSpec(name="formula_pretty", label=True), FieldSpec(name="volume")],
    )  # fmt: skip
    pairs = EndpointSpec(
        name="pairs", read_only=True,
        fields=[FieldSpec(name="formula_a", description="Formula A"), FieldSpec(name="volume")],
    )  # fmt: skip
    router.register(ToolSpec(name="db", endpoints=[crystals, pairs]))
    plan = router.plan(PlanRequest(query="formula and volume of those crystals"))
    assert plan.primary is not None and plan.primary.endpoint == "crystals"
    assert {"formula_pretty", "volume"} <= set(plan.primary.selected_fields)
