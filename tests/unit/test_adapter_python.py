"""Python callables as tools: signature schemas, return-type fields, threads and errors."""

from __future__ import annotations

import threading
from typing import Any, TypedDict

import pytest
from pydantic import BaseModel, Field

from schemarouter_integrations import (
    FieldSpec,
    InvocationUnavailableError,
    NonRetryableInvocationError,
    PlanRequest,
    RegistrationError,
    SchemaRouter,
    SchemaValidationError,
)
from schemarouter_integrations.adapters._python import build_callable_route
from tests.support.execution import call_of_first_endpoint as call

pytestmark = pytest.mark.anyio


class Summary(BaseModel):
    formula: str
    band_gap: float | None = Field(default=None, description="Band gap (eV)")


class Row(TypedDict):
    formula: str
    density: float


def summaries(formula: str, limit: int = 10) -> list[Summary]:
    """Search material summaries by formula."""
    return [Summary(formula=formula, band_gap=1.1)][:limit]


def test_input_schema_comes_from_the_signature() -> None:
    spec, _ = build_callable_route(summaries, name="mp_python")
    schema = spec.endpoints[0].input_schema
    assert set(schema["properties"]) == {"formula", "limit"}
    assert schema["required"] == ["formula"]
    assert schema["properties"]["limit"]["type"] == "integer"
    assert schema["additionalProperties"] is False


def test_parameter_names_that_shadow_pydantic_attributes_stay_canonical() -> None:
    def odd(schema: str, model_config: int = 0, json: bool = False) -> dict[str, Any]:
        return {}

    spec, _ = build_callable_route(odd, name="odd")
    assert set(spec.endpoints[0].input_schema["properties"]) == {"schema", "model_config", "json"}


def test_fields_come_from_a_pydantic_return_model() -> None:
    spec, _ = build_callable_route(summaries, name="mp_python")
    fields = spec.endpoints[0].fields
    assert [f.name for f in fields] == ["formula", "band_gap"]
    assert fields[1].description == "Band gap (eV)"


def test_fields_come_from_a_typed_dict_return() -> None:
    def rows() -> list[Row]:
        return []

    spec, _ = build_callable_route(rows, name="rows")
    assert [f.name for f in spec.endpoints[0].fields] == ["formula", "density"]


def test_fields_option_wins_over_the_annotation() -> None:
    gap = FieldSpec(name="band_gap", aliases=["bandgap"])
    spec, _ = build_callable_route(summaries, name="mp_python", fields=[gap, "formula"])
    assert spec.endpoints[0].fields == [gap, FieldSpec(name="formula", identity=True)]  # named by an argument


def test_endpoint_defaults_to_the_function_name_and_read_only_to_unclassified() -> None:
    spec, _ = build_callable_route(summaries, name="mp_python")
    assert spec.endpoints[0].name == "summaries"
    assert spec.endpoints[0].read_only is None
    assert spec.endpoints[0].description == "Search material summaries by formula."


def test_endpoint_and_read_only_can_be_given() -> None:
    spec, _ = build_callable_route(summaries, name="mp_python", endpoint="search", read_only=True)
    assert (spec.endpoints[0].name, spec.endpoints[0].read_only) == ("search", True)


def test_unknown_options_are_refused() -> None:
    with pytest.raises(RegistrationError, match="unknown option"):
        build_callable_route(summaries, name="mp_python", projection=None)


class Opaque:
    """A type pydantic cannot describe in JSON Schema."""


def test_a_parameter_without_json_schema_is_a_registration_error() -> None:
    def takes(thing: Opaque) -> None:
        return None

    with pytest.raises(RegistrationError, match="no JSON Schema"):
        build_callable_route(takes, name="t")


async def test_sync_functions_run_in_a_worker_thread() -> None:
    threads: list[int] = []

    def record(formula: str) -> dict[str, Any]:
        threads.append(threading.get_ident())
        return {"formula": formula}

    spec, invoker = build_callable_route(record, name="t")
    assert await invoker(call(spec, {"formula": "Si"})) == {"formula": "Si"}
    assert threads and threads[0] != threading.get_ident()


async def test_async_functions_are_awaited_on_the_loop() -> None:
    async def fetch(formula: str) -> dict[str, Any]:
        return {"formula": formula, "thread": threading.get_ident()}

    spec, invoker = build_callable_route(fetch, name="t")
    assert await invoker(call(spec, {"formula": "Si"})) == {"formula": "Si", "thread": threading.get_ident()}


async def test_models_are_returned_as_dicts() -> None:
    spec, invoker = build_callable_route(summaries, name="mp_python")
    assert await invoker(call(spec, {"formula": "Si"})) == [{"formula": "Si", "band_gap": 1.1}]


async def test_omitted_arguments_keep_the_function_defaults() -> None:
    sentinel = object()

    def f(a: int, b: Any = sentinel) -> dict[str, Any]:
        return {"default_kept": b is sentinel}

    spec, invoker = build_callable_route(f, name="t")
    assert await invoker(call(spec, {"a": 1})) == {"default_kept": True}


async def test_positional_only_parameters_are_passed_positionally() -> None:
    def f(a: int, b: int = 2, /, *, c: int = 3) -> dict[str, int]:
        return {"sum": a + b + c}

    spec, invoker = build_callable_route(f, name="t")
    assert await invoker(call(spec, {"a": 1, "c": 10})) == {"sum": 13}


async def test_arguments_that_do_not_fit_raise_schema_validation() -> None:
    spec, invoker = build_callable_route(summaries, name="mp_python")
    with pytest.raises(SchemaValidationError):
        await invoker(call(spec, {"formula": "Si", "limit": "many"}))


async def test_a_function_can_declare_itself_unavailable_and_fall_back() -> None:
    def down(formula: str) -> list[Summary]:
        raise InvocationUnavailableError("mp client offline")

    def oqmd(formula: str) -> list[Summary]:
        return [Summary(formula=formula, band_gap=0.6)]

    router = SchemaRouter()
    router.add_callable(down, name="mp_python", provider="mp", read_only=True)
    router.add_callable(oqmd, name="oqmd_python", provider="oqmd", read_only=True)
    result = await router.invoke(
        PlanRequest(
            query="Si band gap",
            arguments={"formula": "Si"},
            preferred_tools=["mp_python"],
            fallback_scope="cross_provider",
        )
    )
    assert result.route == ["mp_python.down", "oqmd_python.oqmd"]
    assert result.records == [{"band_gap": 0.6, "formula": "Si"}]  # formula identifies the record


async def test_other_exceptions_end_the_run_as_non_retryable() -> None:
    def broken(formula: str) -> list[Summary]:
        raise KeyError("bug")

    router = SchemaRouter()
    router.add_callable(broken, name="mp_python", provider="mp", read_only=True)
    with pytest.raises(NonRetryableInvocationError, match="KeyError"):
        await router.invoke(PlanRequest(query="band gap", arguments={"formula": "Si"}))
