"""Arguments that are not JSON data are refused where a request or call is made, never deeper.

Planning must not crash on them, remember a verdict for them, or pass them to an invoker.
"""

from __future__ import annotations

import datetime
import math
from typing import Any

import pytest
from pydantic import ValidationError

from schemarouter_integrations import EndpointSpec, PlanRequest, SchemaRouter, ToolSpec
from tests.support.execution import call_for
from tests.support.seed import band_gap, seed_router

NOT_JSON: list[Any] = [
    {"Si", "Ge"},
    ("Si", "Ge"),
    b"Si",
    datetime.date(2024, 1, 1),
    object(),
    math.nan,
    math.inf,
    "Si\ud800",
    {"nested": {1: "Si"}},
]
NOT_JSON_IDS = ["set", "tuple", "bytes", "date", "object", "nan", "inf", "lone_surrogate", "int_key"]


@pytest.mark.parametrize("value", NOT_JSON, ids=NOT_JSON_IDS)
def test_a_request_with_an_argument_that_is_not_json_data_is_refused(value: Any) -> None:
    with pytest.raises(ValidationError) as refused:
        PlanRequest(query="band gap", arguments={"formula": value})
    problems = [f"{e['loc']} {e['msg']}" for e in refused.value.errors(include_input=False)]
    assert any("formula" in problem for problem in problems)


def test_a_copied_request_is_validated_like_a_new_one() -> None:
    request = PlanRequest(query="band gap", arguments={"formula": "Si"})
    with pytest.raises(ValidationError):
        request.model_copy(update={"arguments": {"formula": {"Si"}}})


def test_a_hand_built_call_with_an_argument_that_is_not_json_data_is_refused() -> None:
    router, _ = seed_router()
    with pytest.raises(ValidationError):
        call_for(router, "mp_api", arguments={"formula": {"Si"}})


def test_arguments_too_deep_for_a_recursive_schema_reject_the_route_instead_of_crashing() -> None:
    chain = {"type": "array", "items": {"$ref": "#/$defs/chain"}}
    schema = {"$defs": {"chain": chain}, "type": "object", "properties": {"chain": {"$ref": "#/$defs/chain"}}}
    router = SchemaRouter()
    router.register(
        ToolSpec(
            name="chains",
            endpoints=[EndpointSpec(name="search", read_only=True, input_schema=schema, fields=[band_gap()])],
        )
    )
    deep: list[Any] = []
    inner = deep
    for _ in range(240):
        inner.append([])
        inner = inner[0]
    plan = router.plan(PlanRequest(query="band gap", arguments={"chain": deep}))
    assert plan.primary is None
    assert "nested too deeply to validate" in plan.explain()
