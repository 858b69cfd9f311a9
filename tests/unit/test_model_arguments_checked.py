"""``ModelArguments.checked`` is ``model.model_validate(values).model_dump()``, plain values
copied instead of serialised."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from pydantic import ValidationError

from schemarouter_integrations import SchemaRouter
from schemarouter_integrations._framework.arguments import ModelArguments, arguments_model


async def search(
    formula: str | None = None,
    elements: list[str] | None = None,
    band_gap_min: float | None = None,
    limit: int = 10,
    options: dict[str, Any] | None = None,
    anything: Any = None,
) -> list[dict[str, Any]]:
    """Materials."""
    return []


@pytest.fixture(scope="module")
def arguments() -> ModelArguments:
    router = SchemaRouter()
    router.add_callable(search, name="mp", read_only=True, fields=["band_gap", "formula"])
    return arguments_model(router)


def dumped(arguments: ModelArguments, values: dict[str, Any]) -> dict[str, Any]:
    return arguments.model.model_validate(values).model_dump()


CASES: list[dict[str, Any]] = [
    {"query": "band gap of Si"},
    {"query": "band gap of Si", "formula": "Si", "limit": 2},
    {"query": "band gap", "elements": ["Si", "O"], "band_gap_min": 1},
    {"query": "band gap", "options": {"sort": ["band_gap"], "deep": {"a": None}}},
    {"query": "band gap", "anything": (1, 2)},
    {"query": "band gap", "anything": datetime.date(2026, 12, 2)},
    {"query": "band gap", "anything": {"when": {1, 2}}},
    {"query": "Fe₂O₃", "formula": "Fe₂O₃"},
]


@pytest.mark.parametrize("values", CASES)
def test_checked_values_are_the_dumped_model(arguments: ModelArguments, values: dict[str, Any]) -> None:
    checked = arguments.checked(values)
    expected = dumped(arguments, values)
    assert checked == expected
    assert list(checked) == list(expected)
    assert [type(v) for v in checked.values()] == [type(v) for v in expected.values()]


def test_checked_values_do_not_share_containers_with_the_callers(arguments: ModelArguments) -> None:
    options: dict[str, Any] = {"sort": ["band_gap"]}
    checked = arguments.checked({"query": "band gap", "options": options, "anything": [1]})
    options["sort"].append("formula")
    assert checked["options"] == {"sort": ["band_gap"]}


@pytest.mark.parametrize(
    "values",
    [
        {"formula": "Si"},
        {"query": "band gap", "limit": "many"},
        {"query": "band gap", "budget": 3},
        {"query": 3},
    ],
)
def test_bad_values_get_the_models_validation_error(
    arguments: ModelArguments, values: dict[str, Any]
) -> None:
    with pytest.raises(ValidationError) as expected:
        dumped(arguments, values)
    with pytest.raises(ValidationError) as got:
        arguments.checked(values)
    assert got.value.errors() == expected.value.errors()
