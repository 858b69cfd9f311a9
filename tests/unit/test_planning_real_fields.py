"""Planning over the real wire names of ../shared/fixtures/PROVIDER_FIELDS.md."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import (
    EndpointSpec,
    FieldSpec,
    PlanRequest,
    SchemaRouter,
    ServerProjectionSpec,
    ToolSpec,
)

FORMULA = {"type": "object", "properties": {"formula": {"type": "string"}}, "additionalProperties": False}
GAP_ALIASES = ["bandgap", "gap"]


def tool(name: str, provider: str, mode: str, parameter: str, *fields: FieldSpec) -> ToolSpec:
    field_map = {f.name: f.wire_path[0] for f in fields if f.wire_path[0] != f.name}
    return ToolSpec(
        name=name,
        provider=provider,
        access_mode=mode,
        endpoints=[
            EndpointSpec(
                name="search",
                read_only=True,
                input_schema=FORMULA,
                records_path=["data"],
                fields=list(fields),
                projection=ServerProjectionSpec(parameter=parameter, field_map=field_map),
            )
        ],
    )


def real_router() -> SchemaRouter:
    router = SchemaRouter()
    router.register(
        tool(
            "mp_api", "materials_project", "openapi", "_fields",
            FieldSpec(name="band_gap", aliases=GAP_ALIASES),
            FieldSpec(name="formula", path=["formula_pretty"]),
            FieldSpec(name="bulk_modulus", path=["bulk_modulus", "vrh"], aliases=["K_VRH"]),
            FieldSpec(name="shear_modulus", path=["shear_modulus", "vrh"]),
            FieldSpec(name="energy_above_hull", aliases=["stability"]),
        )
    )  # fmt: skip
    router.register(
        tool(
            "mp_optimade", "materials_project", "optimade", "response_fields",
            FieldSpec(name="formula", path=["chemical_formula_reduced"]),
            FieldSpec(name="stability", path=["_mp_stability"]),
        )
    )  # fmt: skip
    router.register(
        tool(
            "oqmd_api", "oqmd", "openapi", "fields",
            FieldSpec(name="band_gap", aliases=GAP_ALIASES),
            FieldSpec(name="formula", path=["name"]),
            FieldSpec(name="stability"),
        )
    )  # fmt: skip
    router.register(
        tool(
            "oqmd_optimade", "oqmd", "optimade", "response_fields",
            FieldSpec(name="band_gap", path=["_oqmd_band_gap"], aliases=GAP_ALIASES),
            FieldSpec(name="formula", path=["chemical_formula"]),
        )
    )  # fmt: skip
    router.register(
        tool(
            "alexandria_optimade", "alexandria", "optimade", "response_fields",
            FieldSpec(name="band_gap", path=["_alexandria_band_gap"], aliases=GAP_ALIASES),
            FieldSpec(name="scan_band_gap", path=["_alexandria_scan_band_gap"], aliases=["scan band gap"]),
            FieldSpec(name="formula", path=["chemical_formula_reduced"]),
        )
    )  # fmt: skip
    return router


def ask(query: str) -> Any:
    return real_router().plan(
        PlanRequest(
            query=query,
            arguments={"formula": "Si"},
            preferred_tools=["mp_api"],
            fallback_scope="cross_provider",
            max_fallbacks=8,
        )
    )


def test_band_gap_question_drops_mp_optimade_and_keeps_oqmd_and_alexandria() -> None:
    plan = ask("Si band gap")
    assert [c.tool for c in plan.calls] == ["mp_api", "alexandria_optimade", "oqmd_api", "oqmd_optimade"]
    rejected = {r.tool: r.reason for r in plan.rejected}
    assert list(rejected) == ["mp_optimade"]
    assert "exposes no field for 'band_gap'" in rejected["mp_optimade"]


@pytest.mark.parametrize(
    ("tool_name", "projection"),
    [
        ("mp_api", {"_fields": "band_gap"}),
        ("oqmd_api", {"fields": "band_gap"}),
        ("oqmd_optimade", {"response_fields": "_oqmd_band_gap"}),
        ("alexandria_optimade", {"response_fields": "_alexandria_band_gap"}),
    ],
)
def test_each_route_pushes_its_own_wire_name_upstream(tool_name: str, projection: dict[str, str]) -> None:
    call = next(c for c in ask("Si band gap").calls if c.tool == tool_name)
    assert call.server_projection == projection
    assert call.selected_fields == ["band_gap"]


def test_bulk_modulus_question_can_only_be_answered_by_mp_native() -> None:
    plan = ask("bulk modulus of Si")
    assert [c.tool for c in plan.calls] == ["mp_api"]
    assert plan.calls[0].server_projection == {"_fields": "bulk_modulus"}
    assert {r.tool for r in plan.rejected} == {
        "mp_optimade",
        "oqmd_api",
        "oqmd_optimade",
        "alexandria_optimade",
    }


def test_scan_band_gap_is_a_different_need_than_band_gap() -> None:
    plan = ask("SCAN band gap of Si")
    assert plan.need == ["scan_band_gap"]
    assert [c.tool for c in plan.calls] == ["alexandria_optimade"]
    assert plan.calls[0].server_projection == {"response_fields": "_alexandria_scan_band_gap"}


@pytest.mark.anyio
async def test_result_reads_a_nested_wire_path_and_writes_the_canonical_name() -> None:
    router = real_router()

    async def mp_native(call: Any) -> Any:
        return {
            "data": [{"formula_pretty": "Si", "bulk_modulus": {"voigt": 89.0, "reuss": 87.0, "vrh": 88.0}}]
        }

    router.bind("mp_api", mp_native)
    result = await router.invoke(PlanRequest(query="Si bulk modulus", arguments={"formula": "Si"}))
    assert result.records == [{"bulk_modulus": 88.0}]
