"""Output handling: raw validation (compiled once), locating records, canonical projection."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from schemarouter_integrations import (
    EndpointSpec,
    FieldSpec,
    PlanRequest,
    SchemaRouter,
    SchemaValidationError,
    ToolCall,
    ToolSpec,
)
from schemarouter_integrations._contracts import fast_check, schemas

pytestmark = pytest.mark.anyio

ELASTIC = FieldSpec(
    name="elastic_modulus",
    aliases=("탄성계수", "youngs modulus"),
    path=("_provider_b_elasticity",),
    result_path=("elastic_modulus",),
)
BULK = FieldSpec(name="bulk_modulus", path=("bulk_modulus", "vrh"), result_path=("moduli", "bulk"))
FORMULA = FieldSpec(name="formula", path=("chemical_formula_reduced",))


def provider_b(
    *, records_path: tuple[str, ...] | None = ("data",), output_schema: dict[str, Any] | None = None
) -> ToolSpec:
    return ToolSpec(
        name="provider_b",
        provider="provider_b",
        access_mode="optimade",
        endpoints=[
            EndpointSpec(
                name="search_structures",
                read_only=True,
                fields=[ELASTIC, BULK, FORMULA],
                records_path=records_path,
                output_schema=output_schema,
                input_schema={"type": "object", "properties": {"formula": {"type": "string"}}},
            )
        ],
    )


def answering(raw: Any) -> Any:
    async def invoker(call: ToolCall) -> Any:
        return raw

    return invoker


RAW_RECORD = {
    "id": "b-1",
    "chemical_formula_reduced": "Si",
    "_provider_b_elasticity": 160.0,
    "bulk_modulus": {"vrh": 98.0, "voigt": 99.0},
    "secret_internal_field": "dropped",
}


async def test_records_are_projected_to_canonical_fields_and_everything_else_is_dropped() -> None:
    router = SchemaRouter()
    router.register(provider_b(), answering({"data": [RAW_RECORD], "meta": {"more": True}}))

    result = await router.invoke(
        PlanRequest(query="Si", fields=("elastic_modulus", "bulk_modulus", "formula"))
    )

    assert result.records == [{"elastic_modulus": 160.0, "moduli": {"bulk": 98.0}, "formula": "Si"}]


async def test_only_the_fields_of_the_need_are_kept() -> None:
    router = SchemaRouter()
    router.register(provider_b(), answering({"data": [RAW_RECORD]}))

    result = await router.invoke(PlanRequest(query="탄성계수 of Si"))

    assert result.records == [{"elastic_modulus": 160.0}]


async def test_a_field_missing_from_a_record_is_absent_from_it() -> None:
    router = SchemaRouter()
    router.register(provider_b(), answering({"data": [{"id": "b-2"}]}))

    result = await router.invoke(PlanRequest(query="youngs modulus"))

    assert result.records == [{}]


async def test_a_null_the_source_returned_is_none() -> None:
    router = SchemaRouter()
    router.register(provider_b(), answering({"data": [{"id": "b-2", "_provider_b_elasticity": None}]}))

    result = await router.invoke(PlanRequest(query="youngs modulus"))

    assert result.records == [{"elastic_modulus": None}]


async def test_a_lone_object_is_one_record() -> None:
    router = SchemaRouter()
    router.register(provider_b(records_path=None), answering(RAW_RECORD))

    result = await router.invoke(PlanRequest(query="youngs modulus"))

    assert result.records == [{"elastic_modulus": 160.0}]


async def test_records_that_are_not_objects_break_the_output_contract() -> None:
    router = SchemaRouter()
    router.register(provider_b(), answering({"data": [1, 2, 3]}))

    with pytest.raises(SchemaValidationError, match="list of objects"):
        await router.invoke(PlanRequest(query="youngs modulus"))


async def test_output_validator_is_compiled_once_for_many_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    output_schema = {"title": f"unique {uuid.uuid4()}", "type": "object", "required": ["data"]}
    compiled: list[str] = []
    slow, fast = schemas._compile, fast_check._compile

    def spying_slow(schema: dict[str, Any]) -> Any:
        if schema == output_schema:
            compiled.append("jsonschema")
        return slow(schema)

    def spying_fast(schema: dict[str, Any]) -> Any:
        if schema == output_schema:
            compiled.append("fast")
        return fast(schema)

    monkeypatch.setattr(schemas, "_compile", spying_slow)
    monkeypatch.setattr(fast_check, "_compile", spying_fast)
    router = SchemaRouter()
    router.register(provider_b(output_schema=output_schema), answering({"data": [RAW_RECORD]}))

    for _ in range(3):
        await router.invoke(PlanRequest(query="youngs modulus"))

    # the compiled fast check decides valid responses when jsonschema-rs is installed; the
    # jsonschema validator otherwise: either way each is compiled at most once
    assert compiled == (["fast"] if fast_check.HAS_FAST_CHECK else ["fast", "jsonschema"])
