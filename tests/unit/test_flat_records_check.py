"""Flat records of plain values skip the JSON walk; anything else is still refused by it."""

from __future__ import annotations

import math
from typing import Any

import pytest

from schemarouter_integrations._execution.projection import checked_records
from schemarouter_integrations.errors import SchemaValidationError


def test_flat_plain_records_pass() -> None:
    records = [{"a": "x", "b": 1, "c": 0.5, "d": True, "e": None}]
    assert checked_records(records) is records


@pytest.mark.parametrize("value", [math.nan, math.inf, {1, 2}, b"raw", (1, 2), object()])
def test_a_flat_record_with_a_value_json_cannot_carry_is_refused(value: Any) -> None:
    with pytest.raises(SchemaValidationError, match="record 0 cannot be written as JSON"):
        checked_records([{"a": value}])


def test_a_flat_record_with_a_key_that_is_not_a_string_is_refused() -> None:
    with pytest.raises(SchemaValidationError, match="a key that is not a string"):
        checked_records([{1: "x"}])  # type: ignore[dict-item]


def test_a_nested_record_is_still_walked() -> None:
    with pytest.raises(SchemaValidationError, match="at /a/0"):
        checked_records([{"a": [math.nan]}])
