"""Invariants of planning and execution over random registries, requests and failures.

Each property is checked by hypothesis over registries of up to a dozen endpoints: several
providers (or none), read-only, mutating and unclassified endpoints, fields with aliases,
input schemas that accept or refuse the request's arguments, and invokers that answer,
are unavailable or refuse deterministically.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schemarouter_integrations import (
    EndpointSpec,
    FieldSpec,
    InvocationUnavailableError,
    NonRetryableInvocationError,
    Plan,
    PlanRequest,
    RetryPolicy,
    RunBudget,
    SchemaRouter,
    SchemaRouterError,
    ToolSpec,
)
from schemarouter_integrations.events import RunEndEvent, RunErrorEvent

FIELDS = ["band_gap", "formula", "density", "volume"]
ALIASES = {
    "band_gap": ["gap", "bandgap"],
    "formula": ["chemical formula"],
    "density": [],
    "volume": ["cell volume"],
}
PROVIDERS = [None, "materials_project", "oqmd", "alexandria"]
ARGUMENTS = ["formula", "elements", "limit"]
OUTCOMES = ["answer", "unavailable", "refuse"]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@dataclass(frozen=True)
class EndpointPlan:
    tool: str
    provider: str | None
    read_only: bool | None
    fields: tuple[str, ...]
    accepts: tuple[str, ...]
    cost: float
    outcome: str


endpoint_plans = st.builds(
    EndpointPlan,
    tool=st.sampled_from([f"tool_{i}" for i in range(8)]),
    provider=st.sampled_from(PROVIDERS),
    read_only=st.sampled_from([True, True, True, False, None]),
    fields=st.lists(st.sampled_from(FIELDS), min_size=1, max_size=4, unique=True).map(tuple),
    accepts=st.lists(st.sampled_from(ARGUMENTS), max_size=3, unique=True).map(tuple),
    cost=st.sampled_from([0.5, 1.0, 2.0]),
    outcome=st.sampled_from(OUTCOMES),
)
landscapes = st.lists(endpoint_plans, min_size=1, max_size=12)
requests = st.builds(
    lambda needed, args, preferred, scope, max_fallbacks: PlanRequest(
        query=" and ".join(needed) + " of Si",
        arguments={name: "Si" for name in args},
        preferred_tools=preferred,
        fallback_scope=scope,
        max_fallbacks=max_fallbacks,
    ),
    st.lists(st.sampled_from(FIELDS), min_size=1, max_size=2, unique=True),
    st.lists(st.sampled_from(ARGUMENTS), max_size=2, unique=True),
    st.lists(st.sampled_from([f"tool_{i}" for i in range(8)]), max_size=2, unique=True),
    st.sampled_from(["disabled", "same_provider", "cross_provider"]),
    st.integers(min_value=0, max_value=8),
)
budgets = st.builds(
    RunBudget,
    max_tool_calls=st.none() | st.integers(min_value=0, max_value=4),
    max_attempts=st.none() | st.integers(min_value=0, max_value=6),
    max_cost_units=st.none() | st.sampled_from([0.0, 1.0, 2.5, 5.0]),
)


def tool_specs(landscape: list[EndpointPlan]) -> list[ToolSpec]:
    """One ToolSpec per tool name; each planned endpoint becomes endpoint ``e<i>``."""
    by_tool: dict[str, list[tuple[int, EndpointPlan]]] = {}
    for index, item in enumerate(landscape):
        by_tool.setdefault(item.tool, []).append((index, item))
    specs = []
    for tool, items in sorted(by_tool.items()):
        provider = items[0][1].provider
        endpoints = [
            EndpointSpec(
                name=f"e{index}",
                read_only=item.read_only,
                cost_units=item.cost,
                retry=RetryPolicy(max_attempts=2, backoff_seconds=0.0, jitter=False),
                input_schema={
                    "type": "object",
                    "properties": {name: {"type": "string"} for name in item.accepts},
                    "additionalProperties": False,
                },
                fields=[FieldSpec(name=name, aliases=ALIASES[name]) for name in item.fields],
            )
            for index, item in items
        ]
        specs.append(ToolSpec(name=tool, provider=provider, endpoints=endpoints))
    return specs


def outcome_of(landscape: list[EndpointPlan], endpoint: str) -> str:
    return landscape[int(endpoint.removeprefix("e"))].outcome


def router_for(landscape: list[EndpointPlan], order: random.Random | None = None) -> SchemaRouter:
    router = SchemaRouter()
    specs = tool_specs(landscape)
    if order is not None:
        order.shuffle(specs)

    async def invoker(call: Any) -> Any:
        outcome = outcome_of(landscape, call.endpoint)
        if outcome == "unavailable":
            raise InvocationUnavailableError(f"{call.access_path} is down")
        if outcome == "refuse":
            raise NonRetryableInvocationError(f"{call.access_path} refused", status_code=400)
        return {name: 1.0 for name in FIELDS}

    for spec in specs:
        router.register(spec, invoker)
    return router


def chain_signature(plan: Plan) -> list[tuple[str, str]]:
    return [(call.access_path, call.scope) for call in plan.calls]


@SETTINGS
@given(landscapes, requests)
def test_an_automatic_chain_holds_read_only_calls_only(
    landscape: list[EndpointPlan], request: PlanRequest
) -> None:
    plan = router_for(landscape).plan(request)
    if request.fallback_scope != "disabled" or len(plan.calls) > 1:
        assert all(call.read_only is True for call in plan.calls)


@SETTINGS
@given(landscapes, requests)
def test_a_chain_never_holds_more_than_max_fallbacks(
    landscape: list[EndpointPlan], request: PlanRequest
) -> None:
    plan = router_for(landscape).plan(request)
    assert len(plan.fallbacks) <= request.max_fallbacks
    if request.fallback_scope == "disabled":
        assert plan.fallbacks == []


@SETTINGS
@given(landscapes, requests)
def test_same_provider_fallbacks_come_before_cross_provider_ones(
    landscape: list[EndpointPlan], request: PlanRequest
) -> None:
    plan = router_for(landscape).plan(request)
    scopes = [call.scope for call in plan.fallbacks]
    assert scopes == sorted(scopes, key=lambda scope: scope != "same_provider")
    if plan.primary is not None:
        for call in plan.fallbacks:
            same = call.provider == plan.primary.provider
            assert (call.scope == "same_provider") == same
            if request.fallback_scope == "same_provider":
                assert same


@SETTINGS
@given(landscapes, requests)
def test_every_call_serves_the_need_but_what_is_missing_and_accepts_the_arguments(
    landscape: list[EndpointPlan], request: PlanRequest
) -> None:
    router = router_for(landscape)
    plan = router.plan(request)
    assert set(plan.missing) <= set(plan.need)
    for call in plan.calls:
        endpoint = router.tools[call.tool].endpoint(call.endpoint)
        assert endpoint is not None
        names = {field.name for field in endpoint.fields}
        assert set(plan.need) - set(plan.missing) <= set(call.evidence)
        assert not set(plan.missing) & set(call.evidence)
        assert {evidence.field for evidence in call.evidence.values()} <= names
        assert set(request.arguments) <= set(endpoint.input_schema["properties"])


@SETTINGS
@given(landscapes, requests)
def test_an_untagged_primary_gets_no_fallback(landscape: list[EndpointPlan], request: PlanRequest) -> None:
    plan = router_for(landscape).plan(request)
    if plan.primary is not None and plan.primary.provider is None:
        assert plan.fallbacks == []


@SETTINGS
@given(landscapes, requests, st.randoms(use_true_random=False))
def test_planning_is_deterministic_also_across_registration_order(
    landscape: list[EndpointPlan], request: PlanRequest, order: random.Random
) -> None:
    first = router_for(landscape)
    assert chain_signature(first.plan(request)) == chain_signature(first.plan(request))
    shuffled = router_for(landscape, order)
    assert chain_signature(shuffled.plan(request)) == chain_signature(first.plan(request))
    assert sorted(r.access_path for r in shuffled.plan(request).rejected) == sorted(
        r.access_path for r in first.plan(request).rejected
    )


async def run_to_the_end(router: SchemaRouter, request: PlanRequest, budget: RunBudget) -> list[Any]:
    return [event async for event in router.stream(request, budget=budget)]


@SETTINGS
@given(landscapes, requests, budgets)
def test_a_run_never_passes_its_budget_and_ends_with_one_typed_terminal_event(
    landscape: list[EndpointPlan], request: PlanRequest, budget: RunBudget
) -> None:
    router = router_for(landscape)
    events = anyio.run(run_to_the_end, router, request, budget)

    terminal = [e for e in events if isinstance(e, RunEndEvent | RunErrorEvent)]
    assert len(terminal) == 1 and events[-1] is terminal[0]
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    last = events[-1]
    if isinstance(last, RunEndEvent):
        assert last.result is not None and last.result.records
        attempts = last.result.attempts
    else:
        assert isinstance(last.exception, SchemaRouterError)
        attempts = last.attempts
    starts = [e for e in events if e.type == "tool.start"]
    cost = sum(
        router.tools[a.access_path.split(".")[0]].endpoint(a.access_path.split(".")[1]).cost_units  # type: ignore[union-attr]
        for a in attempts
    )
    if budget.max_tool_calls is not None:
        assert len(starts) <= budget.max_tool_calls
    if budget.max_attempts is not None:
        assert len(attempts) <= budget.max_attempts
    if budget.max_cost_units is not None:
        assert cost <= budget.max_cost_units + 1e-9


@pytest.mark.anyio
async def test_the_run_invariant_check_sees_a_budget_overrun() -> None:
    """The budget property above can fail: a run with a budget of one attempt makes one."""
    landscape = [EndpointPlan("tool_0", "oqmd", True, ("band_gap",), (), 1.0, "unavailable")]
    router = router_for(landscape)
    events = await run_to_the_end(router, PlanRequest(query="band gap"), RunBudget(max_attempts=1))
    assert isinstance(events[-1], RunErrorEvent)
    assert len(events[-1].attempts) == 1
