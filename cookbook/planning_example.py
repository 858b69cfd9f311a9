"""Planning only: see which route answers "Si band gap" and what would be tried next.

Run: .venv/bin/python cookbook/planning_example.py
"""

from __future__ import annotations

from schemarouter_integrations import (
    EndpointSpec,
    FieldSpec,
    PlanRequest,
    SchemaRouter,
    ServerProjectionSpec,
    ToolSpec,
)

FORMULA = {"type": "object", "properties": {"formula": {"type": "string"}}, "additionalProperties": False}


def materials_router() -> SchemaRouter:
    """Materials Project through three access paths, OQMD through one (real wire names)."""
    router = SchemaRouter()
    band_gap = FieldSpec(name="band_gap", aliases=["bandgap", "gap", "밴드갭"], description="eV")
    router.register(
        ToolSpec(
            name="mp_api",
            provider="materials_project",
            access_mode="openapi",
            endpoints=[
                EndpointSpec(
                    name="search",
                    read_only=True,
                    input_schema=FORMULA,
                    records_path=["data"],
                    fields=[
                        band_gap,
                        FieldSpec(name="formula", path=["formula_pretty"]),
                        FieldSpec(name="bulk_modulus", path=["bulk_modulus", "vrh"], aliases=["K_VRH"]),
                    ],
                    projection=ServerProjectionSpec(
                        parameter="_fields", field_map={"formula": "formula_pretty"}
                    ),
                )
            ],
        )
    )
    router.register(
        ToolSpec(
            name="mp_optimade",
            provider="materials_project",
            access_mode="optimade",
            endpoints=[
                EndpointSpec(
                    name="search_structures",
                    read_only=True,
                    input_schema=FORMULA,
                    records_path=["data"],
                    # MP's OPTIMADE endpoint serves no band gap: it cannot answer that need.
                    fields=[FieldSpec(name="formula", path=["chemical_formula_reduced"])],
                    projection=ServerProjectionSpec(parameter="response_fields"),
                )
            ],
        )
    )
    router.register(
        ToolSpec(
            name="mp_python",
            provider="materials_project",
            access_mode="python",
            endpoints=[
                EndpointSpec(
                    name="summary_search",
                    read_only=True,
                    input_schema=FORMULA,
                    fields=[band_gap, FieldSpec(name="formula", path=["formula_pretty"])],
                )
            ],
        )
    )
    router.register(
        ToolSpec(
            name="oqmd_optimade",
            provider="oqmd",
            access_mode="optimade",
            endpoints=[
                EndpointSpec(
                    name="search_structures",
                    read_only=True,
                    input_schema=FORMULA,
                    records_path=["data"],
                    fields=[
                        band_gap.model_copy(update={"path": ("_oqmd_band_gap",)}),
                        FieldSpec(name="formula", path=["chemical_formula"]),
                    ],
                    projection=ServerProjectionSpec(
                        parameter="response_fields", field_map={"band_gap": "_oqmd_band_gap"}
                    ),
                )
            ],
        )
    )
    return router


def main() -> None:
    router = materials_router()
    request = PlanRequest(
        query="Si band gap",
        arguments={"formula": "Si"},
        preferred_tools=["mp_api"],
        fallback_scope="cross_provider",
        max_fallbacks=3,
    )
    print(router.plan(request).explain())
    print()
    print("Fallback is opt-in; the same request without it:")
    print(router.plan(request.model_copy(update={"fallback_scope": "disabled"})).explain())


if __name__ == "__main__":
    main()
