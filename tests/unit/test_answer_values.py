"""What an answer shows of the values asked about: the fields the request's arguments constrain,
a small value object whole (a space group's symbol beside its number), and the whole value
said returned when a part of it was the need."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import EndpointSpec, FieldSpec, PlanRequest, SchemaRouter, ToolSpec
from schemarouter_integrations._framework import result_content

pytestmark = pytest.mark.anyio

SYMMETRY = [
    FieldSpec("symmetry"),
    FieldSpec("symmetry.symbol", path=["symmetry", "symbol"], aliases=["space group"]),
    FieldSpec("symmetry.number", path=["symmetry", "number"]),
    FieldSpec("symmetry.crystal_system", path=["symmetry", "crystal_system"]),
]
TAKES = ("formula", "ordering", "total_magnetization_min")


def summary(*extra: FieldSpec) -> EndpointSpec:
    schema = {"type": "object", "properties": {n: {"type": ["string", "number"]} for n in TAKES}}
    fields = [FieldSpec("material_id", identity=True), FieldSpec("formula_pretty"), *extra]
    return EndpointSpec(name="summary", read_only=True, input_schema=schema, fields=fields)


def router_of(endpoint: EndpointSpec, answer: Any = None) -> SchemaRouter:
    router = SchemaRouter()
    spec = ToolSpec(name="mp", provider="mp", endpoints=[endpoint])
    if answer is None:
        router.register(spec)
    else:
        router.register(spec, answer)
    return router


def selected(router: SchemaRouter, query: str, **arguments: Any) -> list[str]:
    plan = router.plan(PlanRequest(query=query, arguments=arguments))
    assert plan.primary is not None
    return plan.primary.selected_fields


MAGNETISM = (FieldSpec("is_magnetic"), FieldSpec("ordering"), FieldSpec("total_magnetization"))


def test_a_filter_the_question_does_not_write_selects_its_field() -> None:
    fields = selected(router_of(summary(*MAGNETISM)), "magnetic ferromagnetic materials", ordering="FM")
    assert "ordering" in fields


def test_an_argument_the_question_writes_names_its_subject_and_selects_nothing_more() -> None:
    fields = selected(router_of(summary(*MAGNETISM, FieldSpec("formula"))), "is Si magnetic", formula="Si")
    assert "formula" not in fields


def test_an_identifier_the_question_writes_comes_back_to_say_which_subject_each_record_answers() -> None:
    proteins = EndpointSpec(
        name="proteins",
        read_only=True,
        input_schema={"type": "object", "properties": {"accession": {"type": "string"}}},
        fields=[
            FieldSpec("full_name", label=True),
            FieldSpec("tax_id"),
            FieldSpec("accession"),
            FieldSpec("mass"),
        ],
    )
    fields = selected(router_of(proteins), "mass of the human protein P04637", accession="P04637")
    assert "accession" in fields and "mass" in fields


def test_a_range_filter_selects_the_quantity_it_bounds() -> None:
    router = router_of(summary(*MAGNETISM))
    fields = selected(router, "magnetic materials above 3 muB", total_magnetization_min=3)
    assert "total_magnetization" in fields


def test_a_part_of_a_small_value_object_selects_the_object_whole() -> None:
    fields = selected(router_of(summary(*SYMMETRY)), "space group of GaN", formula="GaN")
    assert "symmetry" in fields and "symmetry.symbol" not in fields


async def test_the_value_object_returned_whole_is_not_called_missing() -> None:
    async def answer(call: object) -> list[dict[str, Any]]:
        symmetry = {"symbol": "P6_3mc", "number": 186, "crystal_system": "Hexagonal"}
        return [{"material_id": "mp-804", "formula_pretty": "GaN", "symmetry": symmetry}]

    router = router_of(summary(*SYMMETRY), answer)
    result = await router.invoke(PlanRequest(query="space group of GaN", arguments={"formula": "GaN"}))
    assert result.records[0]["symmetry"]["symbol"] == "P6_3mc"
    assert "did not return" not in result_content(result)
