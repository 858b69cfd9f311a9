"""A request planned again reuses its plan while nothing the plan read has changed."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import EndpointSpec, FieldSpec, PlanRequest, SchemaRouter, ToolCall, ToolSpec
from schemarouter_integrations._planning import reuse
from schemarouter_integrations._planning.models import Plan
from tests.support.fakes import FakeClock

INPUT = {"type": "object", "properties": {"formula": {"type": "string"}}, "additionalProperties": False}
REQUEST = PlanRequest(
    query="Si band gap",
    arguments={"formula": "Si"},
    preferred_tools=["a_api"],
    fallback_scope="cross_provider",
)


def spec(name: str, provider: str, *, origin: str | None = None) -> ToolSpec:
    fields = [FieldSpec(name="band_gap"), FieldSpec(name="formula")]
    endpoint = EndpointSpec(
        name="search", read_only=True, input_schema=INPUT, records_path=["data"], fields=fields
    )
    return ToolSpec(name=name, provider=provider, endpoints=[endpoint])


async def answer(call: ToolCall) -> Any:
    return {"data": []}


def make_router() -> SchemaRouter:
    router = SchemaRouter(clock=FakeClock())
    for name, provider in (("a_api", "mp"), ("b_api", "mp"), ("c_api", "oqmd")):
        router.register(spec(name, provider), answer)
    return router


def asked(changes: dict[str, Any]) -> PlanRequest:
    """A new request like REQUEST with *changes* (built, so nothing computed is carried over)."""
    return PlanRequest(**{**REQUEST.model_dump(), **changes})


def paths(plan: Plan) -> list[str]:
    return [call.access_path for call in plan.calls]


@pytest.fixture
def compiled(monkeypatch: pytest.MonkeyPatch) -> list[PlanRequest]:
    """The requests the planner really compiled (reused plans are not compiled)."""
    seen: list[PlanRequest] = []
    original = reuse.compile_plan

    def counting(request: PlanRequest, *args: Any, **kwargs: Any) -> Plan:
        seen.append(request)
        return original(request, *args, **kwargs)

    monkeypatch.setattr(reuse, "compile_plan", counting)
    return seen


def test_an_equal_request_is_not_planned_again(compiled: list[PlanRequest]) -> None:
    router = make_router()
    first = router.plan_executable(REQUEST)
    again = router.plan_executable(asked({}))
    assert len(compiled) == 1
    assert again.calls == first.calls and all(a is b for a, b in zip(again.calls, first.calls, strict=True))


def test_a_reused_plan_holds_the_callers_request() -> None:
    router = make_router()
    router.plan_executable(REQUEST)
    asked = PlanRequest(**REQUEST.model_dump())
    assert router.plan_executable(asked).request is asked


def test_a_reused_plan_lists_the_same_rejections() -> None:
    router = make_router()
    first = router.plan(asked({"max_fallbacks": 1}))
    again = router.plan(asked({"max_fallbacks": 1}))
    assert again.rejected == first.rejected and again.rejected_count() == len(first.rejected) == 1


def test_registering_a_tool_plans_again(compiled: list[PlanRequest]) -> None:
    router = make_router()
    router.plan_executable(REQUEST)
    router.register(spec("d_api", "oqmd"), answer)
    assert paths(router.plan_executable(REQUEST)) == [
        "a_api.search",
        "b_api.search",
        "c_api.search",
        "d_api.search",
    ]
    assert len(compiled) == 2


def test_unbinding_a_tool_plans_again() -> None:
    router = make_router()
    router.plan_executable(REQUEST)
    router.unbind("b_api")
    assert paths(router.plan_executable(REQUEST)) == ["a_api.search", "c_api.search"]


def test_binding_a_tool_plans_again() -> None:
    router = make_router()
    router.unbind("b_api")
    router.plan_executable(REQUEST)
    router.bind("b_api", answer)
    assert paths(router.plan_executable(REQUEST)) == ["a_api.search", "b_api.search", "c_api.search"]


def test_a_cooldown_plans_again() -> None:
    router = make_router()
    router.plan(REQUEST)
    router.mark_access_unavailable("a_api", "search", seconds=30)
    assert paths(router.plan(REQUEST)) == ["b_api.search", "c_api.search"]


def test_a_plan_that_met_a_cooldown_is_planned_again_as_the_clock_moves() -> None:
    router = make_router()
    router.mark_access_unavailable("a_api", "search", seconds=30)
    reasons = [router.plan(REQUEST).rejected[0].reason]
    router.clock.advance(10)  # type: ignore[attr-defined]
    reasons.append(router.plan(REQUEST).rejected[0].reason)
    assert reasons == [
        "unavailable: in cooldown for another 30.0s",
        "unavailable: in cooldown for another 20.0s",
    ]


def test_a_cooldown_that_ends_plans_again() -> None:
    router = make_router()
    router.mark_access_unavailable("a_api", "search", seconds=30)
    router.plan(REQUEST)
    router.clock.advance(31)  # type: ignore[attr-defined]
    assert paths(router.plan(REQUEST)) == ["a_api.search", "b_api.search", "c_api.search"]


def test_a_reopened_route_plans_again() -> None:
    router = make_router()
    router.mark_access_unavailable("a_api", "search", seconds=30)
    router.plan(REQUEST)
    router.mark_access_available("a_api", "search")
    assert paths(router.plan(REQUEST)) == ["a_api.search", "b_api.search", "c_api.search"]


def test_other_options_plan_again() -> None:
    router = make_router()
    router.plan(REQUEST)
    fewer = router.plan(asked({"max_fallbacks": 1}))
    same_provider = router.plan(asked({"fallback_scope": "same_provider"}))
    preferred = router.plan(asked({"preferred_tools": ["c_api"]}))
    assert paths(fewer) == ["a_api.search", "b_api.search"]
    assert paths(same_provider) == ["a_api.search", "b_api.search"]
    assert paths(preferred)[0] == "c_api.search"


def test_other_argument_values_plan_again() -> None:
    router = make_router()
    router.plan(REQUEST)
    other = router.plan(asked({"arguments": {"formula": "Ge"}}))
    assert other.primary is not None and other.primary.arguments == {"formula": "Ge"}


def test_plan_and_plan_executable_are_kept_apart() -> None:
    router = make_router()
    router.unbind("b_api")
    router.plan(REQUEST)
    assert paths(router.plan_executable(REQUEST)) == ["a_api.search", "c_api.search"]
    assert paths(router.plan(REQUEST)) == ["a_api.search", "b_api.search", "c_api.search"]


def test_the_plan_key_covers_every_field_of_a_request_that_planning_reads() -> None:
    execution_only = {"hedge", "cache", "max_records"}
    planning = set(PlanRequest.model_fields) - execution_only
    assert planning == {"query", "arguments", "preferred_tools", "fields", "fallback_scope", "max_fallbacks"}
    base = reuse.plan_key(REQUEST, False)
    for changed in (
        {"query": "Si gap"},
        {"arguments": {"formula": "Ge"}},
        {"preferred_tools": ["b_api"]},
        {"fields": ["band_gap"]},
        {"fallback_scope": "same_provider"},
        {"max_fallbacks": 1},
    ):
        assert reuse.plan_key(asked(changed), False) != base, changed
    assert reuse.plan_key(REQUEST, True) != base


def test_the_plan_key_keeps_apart_arguments_that_json_keeps_apart() -> None:
    keys = {
        reuse.plan_key(asked({"arguments": {"formula": value}}), False)
        for value in (1, 1.0, True, 0.0, -0.0, "1", None, [1], {"a": 1})
    }
    assert len(keys) == 9


def test_the_plan_key_does_not_depend_on_the_order_of_arguments() -> None:
    one = PlanRequest(query="Si band gap", arguments={"formula": "Si", "limit": 2})
    other = PlanRequest(query="Si band gap", arguments={"limit": 2, "formula": "Si"})
    assert reuse.plan_key(one, False) == reuse.plan_key(other, False)


def test_changing_a_returned_plan_changes_no_later_plan_of_an_equal_request() -> None:
    router = make_router()
    first = router.plan(REQUEST)
    fallbacks = len(first.fallbacks)
    assert fallbacks >= 1
    first.fallbacks.clear()
    assert len(router.plan(asked({})).fallbacks) == fallbacks


def test_every_list_of_a_reused_plan_is_its_own() -> None:
    router = make_router()
    kept = router.plan(REQUEST)
    again = router.plan(asked({}))
    lists = [name for name, value in again.__dict__.items() if type(value) is list]
    assert set(lists) >= {"need", "missing", "unmatched", "fallbacks", "warnings"}
    assert all(again.__dict__[name] is not kept.__dict__[name] for name in lists)
    assert {n: v for n, v in again.__dict__.items() if n != "request"} == {
        n: v for n, v in kept.__dict__.items() if n != "request"
    }


def test_a_reused_plan_whose_rejections_were_read_is_copied_with_them() -> None:
    plan = make_router().plan(REQUEST)
    first = plan.rejected
    clone = reuse._for_request(plan, asked({}))
    assert clone.rejected == first and clone.rejected is not first
