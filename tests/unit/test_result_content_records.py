"""The records the model reads: one JSON line each, as ``json.dumps`` writes them, whatever
path (one record or many, the encoder built once) wrote them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter
from schemarouter_integrations._framework import result_content
from schemarouter_integrations._framework.messages import _record_line, with_records

pytestmark = pytest.mark.anyio

RECORDS: list[dict[Any, Any]] = [
    {},
    {"material_id": "mp-149", "formula": "Si", "band_gap": 0.61},
    {"b": 1, "a": {"d": [1, 2.5, None, True], "c": "x"}},
    {"formula": "Fe₂O₃", "note": 'naïve \u2028 "quoted" \\ \n tab\t', "emoji": "🧪"},
    {"nan": float("nan"), "inf": float("inf"), "neg": -0.0, "big": 10**30, "tiny": 5e-324},
    {"when": __import__("datetime").date(2026, 12, 2), "raw": b"Si", "set": {1}},
    {1: "int key", 2: "more", 3: None},
    {"lone": "\udc80"},
]


def dumped(record: Any) -> str:
    return json.dumps(record, ensure_ascii=False, sort_keys=True, default=str)


@pytest.mark.parametrize("record", RECORDS)
def test_a_record_line_is_what_json_dumps_writes(record: dict[Any, Any]) -> None:
    assert _record_line(record) == dumped(record)


def test_a_circular_record_gets_the_error_json_dumps_raises() -> None:
    record: dict[str, Any] = {"formula": "Si"}
    record["self"] = record
    with pytest.raises(ValueError) as expected:
        dumped(record)
    with pytest.raises(ValueError) as got:
        _record_line(record)
    assert str(got.value) == str(expected.value)


def test_a_record_of_mixed_key_types_gets_the_error_json_dumps_raises() -> None:
    record = {"a": 1, 2: "b"}
    with pytest.raises(TypeError) as expected:
        dumped(record)
    with pytest.raises(TypeError) as got:
        _record_line(record)
    assert str(got.value) == str(expected.value)


def test_the_encoder_built_once_holds_no_state_after_an_error() -> None:
    record: dict[str, Any] = {"formula": "Si"}
    record["self"] = record
    with pytest.raises(ValueError):
        _record_line(record)
    assert _record_line({"formula": "Si"}) == '{"formula": "Si"}'


def test_one_record_is_listed_like_many() -> None:
    record = {"formula": "Si", "band_gap": 0.61}
    one = with_records(["Answered by a.b."], [record], max_records=20, max_chars=4000)
    two = with_records(["Answered by a.b."], [record, record], max_records=20, max_chars=4000)
    assert one == f"Answered by a.b.\nRecords (1):\n{dumped(record)}"
    assert two == f"Answered by a.b.\nRecords (2):\n{dumped(record)}\n{dumped(record)}"


def test_one_record_is_shown_even_beyond_the_character_bound() -> None:
    record = {"note": "x" * 100}
    assert with_records([], [record], max_records=20, max_chars=10) == f"Records (1):\n{dumped(record)}"


def test_no_record_is_shown_when_none_may_be() -> None:
    text = with_records([], [{"formula": "Si"}], max_records=0, max_chars=4000)
    assert text == "Records (1):\n... 1 more record(s) not shown."


def router_answering(records: list[dict[str, Any]]) -> SchemaRouter:
    async def gaps(formula: str = "Si") -> list[dict[str, Any]]:
        """Band gaps."""
        return records

    router = SchemaRouter()
    router.add_callable(gaps, name="mp", read_only=True, fields=["band_gap", "formula", "material_id"])
    return router


async def test_a_one_record_answer_states_what_is_missing_and_valueless() -> None:
    router = router_answering([{"material_id": "mp-149", "formula": None}])
    result = await router.invoke(PlanRequest(query="band gap and density of Si", arguments={"formula": "Si"}))
    assert result_content(result).splitlines() == [
        "Answered by mp.gaps (python).",
        "Records (1):",
        '{"material_id": "mp-149"}',
        "No data source exposes 'density'. Returned instead: band_gap, formula, material_id.",
        "The source did not return: band_gap.",
        "No record has a value for: formula.",
    ]  # the answer first, then what it lacks


async def test_a_field_without_a_value_in_any_of_two_records_is_stated_once() -> None:
    router = router_answering(
        [
            {"material_id": "mp-149", "formula": None},
            {"material_id": "mp-150", "formula": "Si", "band_gap": None},
        ]
    )
    result = await router.invoke(PlanRequest(query="band gap of Si", arguments={"formula": "Si"}))
    assert result_content(result).splitlines() == [
        "Answered by mp.gaps (python).",
        "Records (2):",
        '{"formula": null, "material_id": "mp-149"}',
        '{"formula": "Si", "material_id": "mp-150"}',
        "No record has a value for: band_gap.",
    ]
