"""A lighter run builds the same objects: trusted events, counted rejections, validation once."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import (
    EndpointSpec,
    FieldSpec,
    InvocationUnavailableError,
    PlanRequest,
    SchemaRouter,
    ToolCall,
    ToolSpec,
)
from schemarouter_integrations._contracts import schemas
from schemarouter_integrations._execution.context import trusted_event
from schemarouter_integrations._trusted import Trusted
from schemarouter_integrations.errors import AttemptRecord
from schemarouter_integrations.events import RunErrorEvent, ToolStartEvent

pytestmark = pytest.mark.anyio
INPUT = {"type": "object", "properties": {"formula": {"type": "string"}}, "additionalProperties": False}


def spec(name: str, provider: str, *fields: str) -> ToolSpec:
    endpoint = EndpointSpec(
        name="search",
        read_only=True,
        input_schema=INPUT,
        records_path=["data"],
        fields=[FieldSpec(name=f) for f in fields],
    )
    return ToolSpec(name=name, provider=provider, endpoints=[endpoint])


async def down(call: ToolCall) -> Any:
    raise InvocationUnavailableError(f"{call.tool} is down")


async def answer(call: ToolCall) -> Any:
    return {"data": [{"band_gap": 0.6, "formula": "Si"}]}


def router_with_unrelated(unrelated: int = 30) -> SchemaRouter:
    router = SchemaRouter()
    router.register(spec("a_api", "mp", "band_gap", "formula"), down)
    router.register(spec("b_api", "mp", "band_gap", "formula"), down)
    router.register(spec("c_api", "oqmd", "band_gap", "formula"), answer)
    router.register(spec("d_api", "oqmd", "band_gap", "formula"), answer)
    for i in range(unrelated):
        router.register(spec(f"stock_{i:02d}", "warehouse", f"stock_{i}", "formula"), answer)
    return router


REQUESTS = [
    PlanRequest(query="Si band gap", arguments={"formula": "Si"}),
    PlanRequest(query="Si band gap", arguments={"formula": "Si"}, fallback_scope="same_provider"),
    PlanRequest(query="Si band gap", arguments={"formula": "Si"}, fallback_scope="cross_provider"),
    PlanRequest(
        query="Si band gap", arguments={"formula": "Si"}, fallback_scope="cross_provider", max_fallbacks=1
    ),
    PlanRequest(query="Si band gap", arguments={"formula": 3}),  # nobody takes it: no primary
    PlanRequest(query="melting point", arguments={"formula": "Si"}),  # nothing matches
    PlanRequest(query="stock", fields=[]),
    PlanRequest(query="Si band gap", preferred_tools=["stock_03"], fallback_scope="cross_provider"),
]


@pytest.mark.parametrize("request_", REQUESTS, ids=[str(i) for i in range(len(REQUESTS))])
@pytest.mark.parametrize("executable", [False, True])
def test_the_counted_rejections_are_the_rejections(request_: PlanRequest, executable: bool) -> None:
    router = router_with_unrelated()
    router.mark_access_unavailable("b_api", "search", seconds=60)
    plan = (router.plan_executable if executable else router.plan)(request_)
    counted = plan.rejected_count()  # before the rejections are built
    assert "rejected" not in plan.__dict__
    assert counted == len(plan.rejected) == plan.rejected_count()
    assert counted + len(plan.calls) == 34


async def test_every_event_of_a_run_is_what_validation_would_build() -> None:
    router = router_with_unrelated()
    result = await router.invoke(
        PlanRequest(query="Si band gap", arguments={"formula": "Si"}, fallback_scope="cross_provider")
    )
    assert result.route == ["a_api.search", "b_api.search", "c_api.search"]
    for event in [*result.events]:
        values = {name: getattr(event, name) for name in type(event).model_fields}
        assert type(event)(**values) == event
        assert type(event).model_validate_json(event.model_dump_json()).model_dump() == event.model_dump()
    for attempt in result.attempts:
        assert AttemptRecord(**attempt.model_dump(), exception=attempt.exception) == attempt


def test_a_trusted_build_refuses_unknown_and_missing_names() -> None:
    with pytest.raises(TypeError, match="unknown \\['colour'\\]"):
        trusted_event(RunErrorEvent, error_type="X", error="boom", colour="red")
    with pytest.raises(TypeError, match="missing \\['error'\\]"):
        trusted_event(RunErrorEvent, error_type="X")


def test_a_trusted_build_fills_fresh_defaults_in_field_order() -> None:
    first = trusted_event(RunErrorEvent, error_type="X", error="boom")
    second = trusted_event(RunErrorEvent, error_type="X", error="boom")
    assert first.route == [] and first.route is not second.route
    assert repr(first) == repr(RunErrorEvent(error_type="X", error="boom", timestamp=first.timestamp))
    assert first.model_fields_set == {"error_type", "error"}
    event = trusted_event(
        ToolStartEvent, tool="t", endpoint="e", scope="primary", arguments={}, server_projection={}
    )
    assert list(event.__dict__)[:4] == ["type", "run_id", "seq", "timestamp"]


def test_models_with_private_state_are_never_built_trusted() -> None:
    from schemarouter_integrations import Plan

    with pytest.raises(TypeError, match="private"):
        Trusted(Plan)


async def test_arguments_the_planner_checked_are_not_validated_again(monkeypatch: pytest.MonkeyPatch) -> None:
    router = router_with_unrelated(0)
    request = PlanRequest(query="Si band gap", arguments={"formula": "Si"}, fallback_scope="cross_provider")
    plan = router.plan_executable(request)
    calls: list[Any] = []
    original = schemas.validation_errors

    def counting(validator: Any, instance: Any, **options: Any) -> list[str]:
        calls.append(instance)
        return original(validator, instance, **options)

    monkeypatch.setattr("schemarouter_integrations._execution.preflight.validation_errors", counting)
    result = await router.invoke(plan)
    assert result.tool == "c_api" and calls == []


async def test_arguments_of_a_hand_made_call_are_still_validated() -> None:
    router = router_with_unrelated(0)
    plan = router.plan_executable(PlanRequest(query="Si band gap", arguments={"formula": "Si"}))
    assert plan.primary is not None
    bad = plan.model_copy(update={"primary": plan.primary.model_copy(update={"arguments": {"formula": 7}})})
    with pytest.raises(Exception, match="input schema"):
        await router.invoke(bad)


def test_a_request_serialises_its_arguments_once() -> None:
    request = PlanRequest(query="q", arguments={"b": [1, 2], "a": {"x": 1.0}})
    assert request.arguments_key == '{"a":{"x":1.0},"b":[1,2]}'
    assert request.arguments_key is request.arguments_key


async def test_a_reused_plan_is_checked_again_after_any_contract_or_binding_change() -> None:
    from schemarouter_integrations import StaleFingerprintError

    router = router_with_unrelated(0)
    request = PlanRequest(query="Si band gap", arguments={"formula": "Si"}, fallback_scope="cross_provider")
    plan = router.plan_executable(request)
    for _ in range(2):  # the second run reuses the first one's preflight
        assert (await router.invoke(plan)).route == ["a_api.search", "b_api.search", "c_api.search"]
    router.unbind("b_api")
    pruned = [e for e in (await router.invoke(plan)).events if e.type == "route.pruned"]
    assert [e.tool for e in pruned] == ["b_api"]
    router.register(spec("a_api", "mp", "band_gap", "formula", "density"), down)
    with pytest.raises(StaleFingerprintError):
        await router.invoke(plan)


async def test_a_plan_without_primary_is_refused_even_when_its_fallbacks_ran_before() -> None:
    from schemarouter_integrations import AllRoutesUnavailableError, NoRouteError

    router = router_with_unrelated(0)
    plan = router.plan_executable(PlanRequest(query="Si band gap", arguments={"formula": "Si"}))
    assert plan.primary is not None
    with pytest.raises(AllRoutesUnavailableError):  # preflight passed: its steps are remembered
        await router.invoke(plan)
    orphan = plan.model_copy(update={"primary": None, "fallbacks": [plan.primary]})
    with pytest.raises(NoRouteError):
        await router.invoke(orphan)
