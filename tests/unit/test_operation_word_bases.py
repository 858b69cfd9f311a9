"""An operation named by a derived noun is named by its base too: "elastic constants" reaches
the ``elasticity`` operation (``_registry/lexicon.py``, the bases of ``words.derived_forms``)."""

from __future__ import annotations

from schemarouter_integrations import EndpointSpec, FieldSpec, PlanRequest, SchemaRouter, ToolSpec


def router() -> SchemaRouter:
    schema = {"type": "object", "properties": {"chemsys": {"type": "string"}}}
    endpoints = [
        EndpointSpec(
            name=name,
            fields=[FieldSpec(name="material_id"), *(FieldSpec(name=f) for f in fields)],
            input_schema=schema,
            read_only=True,
        )
        for name, fields in (
            ("search_materials_summary", ("formula", "density", "volume", "band_gap")),
            ("search_materials_elasticity", ("tensor",)),
        )
    ]
    built = SchemaRouter()
    built.register(ToolSpec(name="t", endpoints=endpoints))
    return built


def primary(query: str) -> str | None:
    plan = router().plan(PlanRequest(query=query, arguments={"chemsys": "C-Si"}))
    return plan.primary.endpoint if plan.primary is not None else None


def test_the_base_of_a_derived_noun_names_its_operation() -> None:
    assert primary("elastic constants of silicon carbide") == "search_materials_elasticity"


def test_the_derived_noun_itself_still_names_its_operation() -> None:
    assert primary("elasticity of silicon carbide") == "search_materials_elasticity"
