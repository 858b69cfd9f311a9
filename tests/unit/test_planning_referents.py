"""Follow-up questions name their subject by describing the values given with them ("band
gaps of the similar materials" with ``material_ids``): the words of that description label
the given values, so they are no need and choose no operation."""

from __future__ import annotations

from typing import Any

from schemarouter_integrations import EndpointSpec, FieldSpec, PlanRequest, SchemaRouter, ToolSpec

IDS = {"type": "object", "properties": {"material_ids": {"type": "string"}, "formula": {"type": "string"}}}


def _search(name: str, description: str, *fields: tuple[str, str]) -> EndpointSpec:
    return EndpointSpec(
        name=name,
        description=description,
        input_schema=IDS,
        fields=[FieldSpec(name=n, description=d) for n, d in (("material_id", "The material's id"), *fields)],
        read_only=True,
    )


def materials() -> SchemaRouter:
    router = SchemaRouter()
    endpoints = [
        _search(
            "search_summary",
            "Search material summaries.",
            ("band_gap", "Band gap energy in eV"),
            ("is_stable", "Whether the material is stable"),
        ),
        _search(
            "search_similarity",
            "Search similarity documents.",
            ("sim", "List containing similar structure data for a given material"),
        ),
        _search("search_dielectric", "Search dielectric data.", ("e_total", "Total dielectric constant")),
    ]
    router.register(ToolSpec(name="mp", provider="mp", access_mode="openapi", endpoints=endpoints))
    return router


def plan_for(query: str, **arguments: Any) -> Any:
    return materials().plan(PlanRequest(query=query, arguments=arguments))


def test_a_description_of_the_given_ids_is_no_need() -> None:
    plan = plan_for("band gaps of the similar materials", material_ids="mp-1,mp-2")
    assert plan.need == ["band_gap"]


def test_a_description_of_the_given_ids_does_not_choose_its_operation() -> None:
    plan = plan_for("band gaps of the similar materials", material_ids="mp-1,mp-2")
    assert plan.primary is not None and plan.primary.endpoint == "search_summary"


def test_the_quantity_asked_of_the_one_referred_to_chooses_the_operation() -> None:
    plan = plan_for("dielectric constant of the stable one", material_ids="mp-149")
    assert plan.primary is not None and plan.primary.endpoint == "search_dielectric"


def test_a_question_writing_its_subject_keeps_every_word() -> None:
    plan = plan_for("band gap of the stable polymorph of Si", formula="Si")
    assert "is_stable" in plan.need


def test_a_subject_without_a_determiner_keeps_its_words() -> None:
    plan = plan_for("band gaps of stable materials", material_ids="mp-1,mp-2")
    assert "is_stable" in plan.need


def test_a_subject_naming_something_other_than_the_arguments_keeps_its_words() -> None:
    plan = plan_for("band gaps of the stable materials", formula="Si")
    assert "is_stable" in plan.need
