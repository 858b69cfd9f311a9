"""Every error of the public API is a SchemaRouterError: invalid contracts and requests too
(they stay pydantic ValidationErrors, with ``errors()``, for code written against pydantic)."""

from __future__ import annotations

import math
from typing import Any

import pytest
from pydantic import ValidationError

from schemarouter_integrations import (
    EndpointSpec,
    FieldSpec,
    PlanRequest,
    RetryPolicy,
    SchemaRouterError,
    ToolSpec,
)
from schemarouter_integrations.errors import InvalidContractError

BAD = [
    pytest.param(lambda: PlanRequest(query="gap", arguments={"x": math.nan}), id="request_nan_argument"),
    pytest.param(lambda: PlanRequest(query="gap", max_fallbacks=99), id="request_max_fallbacks"),
    pytest.param(lambda: FieldSpec(name=""), id="field_without_name"),
    pytest.param(lambda: EndpointSpec(name="s", cost_units=-1), id="negative_cost"),
    pytest.param(
        lambda: ToolSpec(name="t", endpoints=[{"name": "s"}, {"name": "s"}]), id="duplicate_endpoint"
    ),
    pytest.param(lambda: RetryPolicy(max_attempts=0), id="no_attempt"),
    pytest.param(lambda: PlanRequest(query="gap").model_copy(update={"arguments": {"x": {1, 2}}}), id="copy"),
]


@pytest.mark.parametrize("build", BAD)
def test_an_invalid_contract_or_request_is_a_schema_router_error(build: Any) -> None:
    with pytest.raises(SchemaRouterError) as refused:
        build()
    assert isinstance(refused.value, InvalidContractError)


@pytest.mark.parametrize("build", BAD)
def test_it_is_still_the_pydantic_validation_error_with_its_problems(build: Any) -> None:
    with pytest.raises(ValidationError) as refused:
        build()
    assert refused.value.errors()
