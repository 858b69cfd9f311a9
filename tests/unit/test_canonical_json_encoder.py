"""Canonical JSON from the encoder built once is the text, and the error, ``json.dumps`` gives."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest

from schemarouter_integrations._contracts.fingerprint import _not_json, canonical_json, stateless_encoder


def dumped(value: Any) -> str:
    """canonical_json as it was written: ``json.dumps`` with the canonical settings."""
    try:
        return json.dumps(
            value,
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=False,
            allow_nan=False,
            default=_not_json,
        )
    except RecursionError:
        raise ValueError("the value is nested too deeply to be JSON data") from None
    except TypeError as exc:
        raise ValueError(f"the value is not JSON data: {exc}") from None


def outcome(build: Any, value: Any) -> tuple[str, str]:
    try:
        return "text", build(value)
    except Exception as exc:
        return type(exc).__name__, str(exc)


def circular() -> dict[str, Any]:
    value: dict[str, Any] = {"a": [1]}
    value["a"].append(value)
    return value


def deep() -> list[Any]:
    value: list[Any] = []
    for _ in range(100_000):
        value = [value]
    return value


VALUES: list[Any] = [
    None, True, 0, -0.0, 1.5, 10**30, 5e-324, "", "Fe₂O₃ \u2028 \"q\" \\ \n", "\udc80",
    [], {}, {"b": [1, {"d": None, "c": 2.5}], "a": "x"}, [["nested"], {"k": [True, False]}],
    {"b": 1, "a": 2, "Z": 3, "é": 4},
    float("nan"), float("inf"), {1, 2}, b"bytes", datetime.date(2026, 12, 2), {"a": 1, 2: "b"},
    ("tuple", 1), {"when": datetime.datetime(2026, 12, 2)}, {1: "int key"}, {None: 1},
]  # fmt: skip


@pytest.mark.parametrize("value", VALUES)
def test_canonical_json_is_what_json_dumps_gives(value: Any) -> None:
    assert outcome(canonical_json, value) == outcome(dumped, value)


def test_a_circular_value_gets_the_error_json_dumps_raises() -> None:
    assert (
        outcome(canonical_json, circular())
        == outcome(dumped, circular())
        == (
            "ValueError",
            "Circular reference detected",
        )
    )


def test_a_value_nested_too_deeply_gets_the_error_json_dumps_raises() -> None:
    assert outcome(canonical_json, deep()) == outcome(dumped, deep())
    assert outcome(canonical_json, deep())[0] == "ValueError"


def test_the_encoder_built_once_works_after_an_error() -> None:
    outcome(canonical_json, circular())
    assert canonical_json({"b": 1, "a": [2]}) == '{"a":[2],"b":1}'


@pytest.mark.parametrize("ensure_ascii", [True, False])
def test_a_stateless_encoder_writes_what_its_settings_write(ensure_ascii: bool) -> None:
    settings = json.JSONEncoder(ensure_ascii=ensure_ascii, sort_keys=True, default=str)
    encode = stateless_encoder(settings)
    assert encode is not None
    value = {"b": "Fe₂O₃", "a": [1.5, None, datetime.date(2026, 12, 2)]}
    assert "".join(encode(value, 0)) == settings.encode(value)
