"""Conformance with the fixed public contract (/work/shared/API.md) and the design document.

One behaviour per test. Behaviours already covered elsewhere (binding states, scopes, budgets,
retries, probes, projection, event sequences, framework events...) are not repeated here; this
file pins the documented names, parameters, defaults and the statements nothing else checks.
Known mismatches are kept as strict xfails whose reason states the mismatch.
"""

from __future__ import annotations

import inspect
import math
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import pydantic
import pytest

from schemarouter_integrations import (
    AllRoutesUnavailableError,
    CooldownPolicy,
    EndpointSpec,
    FieldSpec,
    InvocationUnavailableError,
    NoRouteError,
    Plan,
    PlanningError,
    PlanRequest,
    RegistrationError,
    RetryPolicy,
    RouterEvent,
    RunBudget,
    SchemaRouter,
    SchemaRouterError,
    ServerProjectionSpec,
    ToolCall,
    ToolResult,
    ToolSpec,
)
from schemarouter_integrations._planning import Rejection
from schemarouter_integrations.events import RunErrorEvent, ToolFallbackEvent
from tests.support.execution import CHAIN, collect, fake_router, losing_mp_optimade_while_mp_api_runs
from tests.support.fakes import FakeClock
from tests.support.health import FakeProbe, health_router
from tests.support.seed import (
    FakeInvoker,
    band_gap,
    elastic_router,
    endpoint,
    formula,
    mp_api,
    seed_router,
    unavailable,
)

REQUIRED = inspect.Parameter.empty
POK = inspect.Parameter.POSITIONAL_OR_KEYWORD
KO = inspect.Parameter.KEYWORD_ONLY
VAR_KW = inspect.Parameter.VAR_KEYWORD
Param = tuple[str, Any, object]


def parameters(fn: Callable[..., Any]) -> list[Param]:
    """``(name, kind, default)`` of every parameter of *fn* except ``self``."""
    return [
        (p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values() if p.name != "self"
    ]


def assert_documented(fn: Callable[..., Any], documented: list[Param]) -> None:
    """The documented parameters come first, as documented; any extra one is optional and keyword-only."""
    actual = parameters(fn)
    assert actual[: len(documented)] == documented
    for name, kind, default in actual[len(documented) :]:
        assert kind is VAR_KW or (kind is KO and default is not REQUIRED), f"extra parameter {name!r}"


def all_down() -> tuple[str, ...]:
    return ("mp_api", "mp_optimade", "mp_python", "oqmd_api")


# -- contracts: parameters and defaults ------------------------------------------------------
DOCUMENTED_FIELDS: list[tuple[type[pydantic.BaseModel], list[str]]] = [
    (FieldSpec, ["name", "semantic_id", "aliases", "path", "result_path", "description", "json_schema"]),
    (ServerProjectionSpec, ["parameter", "field_map", "separator", "always"]),
    (RetryPolicy, ["max_attempts", "backoff_seconds", "max_backoff_seconds", "jitter"]),
    (CooldownPolicy, ["base_seconds", "max_seconds"]),
    (
        EndpointSpec,
        [
            "name",
            "description",
            "input_schema",
            "output_schema",
            "fields",
            "projection",
            "read_only",
            "retry",
            "cost_units",
            "records_path",
        ],
    ),
    (ToolSpec, ["name", "provider", "access_mode", "description", "endpoints"]),
    (PlanRequest, ["query", "arguments", "preferred_tools", "fields", "fallback_scope", "max_fallbacks"]),
    (RunBudget, ["max_tool_calls", "max_attempts", "max_cost_units"]),
]


@pytest.mark.parametrize(
    ("model", "names"), DOCUMENTED_FIELDS, ids=[m.__name__ for m, _ in DOCUMENTED_FIELDS]
)
def test_contract_parameters_come_in_the_documented_order(
    model: type[pydantic.BaseModel], names: list[str]
) -> None:
    assert list(model.model_fields)[: len(names)] == names


DEFAULTS: list[tuple[pydantic.BaseModel, dict[str, Any]]] = [
    (
        FieldSpec(name="band_gap"),
        {"semantic_id": "band_gap", "aliases": [], "description": "", "json_schema": None},
    ),
    (ServerProjectionSpec(parameter="fields"), {"field_map": {}, "separator": ",", "always": []}),
    (RetryPolicy(), {"max_attempts": 1, "backoff_seconds": 0.0, "jitter": True}),
    (CooldownPolicy(), {"base_seconds": 30, "max_seconds": 300}),
    (
        EndpointSpec(name="search"),
        {
            "description": "",
            "input_schema": {},
            "output_schema": None,
            "fields": [],
            "projection": None,
            "read_only": None,
            "retry": RetryPolicy(),
            "cost_units": 1.0,
            "records_path": None,
        },
    ),
    (
        ToolSpec(name="t", endpoints=[EndpointSpec(name="search")]),
        {"provider": None, "access_mode": None, "description": ""},
    ),
    (
        PlanRequest(query="Si band gap"),
        {
            "arguments": {},
            "preferred_tools": [],
            "fields": None,
            "fallback_scope": "disabled",
            "max_fallbacks": 3,
        },
    ),
    (RunBudget(), {"max_tool_calls": None, "max_attempts": None, "max_cost_units": None}),
]


@pytest.mark.parametrize(("instance", "expected"), DEFAULTS, ids=[type(i).__name__ for i, _ in DEFAULTS])
def test_contract_defaults_are_the_documented_ones(
    instance: pydantic.BaseModel, expected: dict[str, Any]
) -> None:
    assert {name: getattr(instance, name) for name in expected} == expected


def test_retry_policy_caps_backoff_at_a_finite_positive_default() -> None:
    cap = RetryPolicy().max_backoff_seconds
    assert math.isfinite(cap) and cap > 0


@pytest.mark.parametrize(
    ("model", "value", "extra", "attribute"),
    [
        (FieldSpec, "band_gap", {}, "name"),
        (ServerProjectionSpec, "response_fields", {}, "parameter"),
        (EndpointSpec, "search", {}, "name"),
        (ToolSpec, "mp_api", {"endpoints": [EndpointSpec(name="search")]}, "name"),
        (PlanRequest, "Si band gap", {}, "query"),
    ],
    ids=["FieldSpec", "ServerProjectionSpec", "EndpointSpec", "ToolSpec", "PlanRequest"],
)
def test_first_documented_parameter_can_be_given_positionally(
    model: type[Any], value: str, extra: dict[str, Any], attribute: str
) -> None:
    assert getattr(model(value, **extra), attribute) == value


def test_field_path_and_result_path_default_to_the_list_of_the_name() -> None:
    field = FieldSpec(name="band_gap")
    assert (field.path, field.result_path) == (["band_gap"], ["band_gap"])


# -- contracts: alias matching ----------------------------------------------------------------
def router_with_field(field: FieldSpec) -> SchemaRouter:
    router = SchemaRouter()
    router.register(
        ToolSpec(name="t", provider="p", endpoints=[EndpointSpec(name="s", read_only=True, fields=[field])])
    )
    return router


def test_alias_matching_uses_unicode_case_folding_not_lowercasing() -> None:
    router = router_with_field(FieldSpec(name="street_name", aliases=["Straße"]))
    assert router.plan("STRASSE of the site").need == ["street_name"]


@pytest.mark.parametrize(
    ("alias", "query"),
    [
        ("youngs_modulus", "Youngs Modulus of Si"),
        ("youngs-modulus", "YOUNGS_MODULUS"),
        ("youngs modulus", "youngs-modulus"),
    ],
)
def test_alias_matching_treats_underscores_hyphens_and_spaces_alike(alias: str, query: str) -> None:
    router = router_with_field(FieldSpec(name="elastic_modulus", aliases=[alias]))
    assert router.plan(query).need == ["elastic_modulus"]


# -- contracts: projection ---------------------------------------------------------------------
def test_server_projection_sends_unmapped_fields_by_canonical_name_joined_by_its_separator() -> None:
    router = SchemaRouter()
    projection = ServerProjectionSpec(parameter="fields", field_map={"band_gap": "_b_gap"}, separator=";")
    router.register(
        ToolSpec(
            name="b",
            provider="b",
            endpoints=[endpoint(fields=[band_gap("_b_gap"), formula("formula")], projection=projection)],
        )
    )
    plan = router.plan(PlanRequest(query="x", fields=["band_gap", "formula"]))
    assert plan.primary is not None and plan.primary.server_projection == {"fields": "_b_gap;formula"}


# -- contracts: fingerprints ------------------------------------------------------------------
def contract(**endpoint_changes: Any) -> ToolSpec:
    field_changes = endpoint_changes.pop("field", {})
    values: dict[str, Any] = {
        "name": "search",
        "fields": [FieldSpec(name="band_gap", **field_changes)],
        "projection": ServerProjectionSpec(parameter="fields"),
        "read_only": True,
    }
    values.update(endpoint_changes)
    return ToolSpec(name="mp_api", provider="mp", access_mode="openapi", endpoints=[EndpointSpec(**values)])


@pytest.mark.parametrize(
    "change",
    [
        {"field": {"path": ["_mp_band_gap"]}},
        {"field": {"result_path": ["props", "band_gap"]}},
        {"field": {"semantic_id": "gap"}},
        {"field": {"description": "eV"}},
        {"field": {"json_schema": {"type": "number"}}},
        {"projection": ServerProjectionSpec(parameter="response_fields")},
        {"projection": ServerProjectionSpec(parameter="fields", field_map={"band_gap": "bg"})},
        {"projection": ServerProjectionSpec(parameter="fields", separator=" ")},
        {"projection": ServerProjectionSpec(parameter="fields", always=["id"])},
        {"retry": RetryPolicy(max_attempts=3)},
        {"records_path": ["data"]},
        {"output_schema": {"type": "object"}},
        {"input_schema": {"type": "object"}},
        {"description": "search materials"},
    ],
    ids=[
        "field.path",
        "field.result_path",
        "field.semantic_id",
        "field.description",
        "field.json_schema",
        "projection.parameter",
        "projection.field_map",
        "projection.separator",
        "projection.always",
        "retry",
        "records_path",
        "output_schema",
        "input_schema",
        "endpoint.description",
    ],
)
def test_tool_fingerprint_covers_every_nested_part_of_the_contract(change: dict[str, Any]) -> None:
    assert contract(**change).fingerprint != contract().fingerprint


def test_fingerprint_does_not_depend_on_dictionary_key_order() -> None:
    one = {"type": "object", "properties": {"formula": {"type": "string"}, "limit": {"type": "integer"}}}
    two = {"properties": {"limit": {"type": "integer"}, "formula": {"type": "string"}}, "type": "object"}
    assert contract(input_schema=one).fingerprint == contract(input_schema=two).fingerprint


# -- registration -----------------------------------------------------------------------------
def test_router_takes_cooldown_clock_and_store_in_the_documented_order() -> None:
    documented = [(name, POK) for name in ("cooldown", "clock", "availability_store")]
    assert [(name, kind) for name, kind, _ in parameters(SchemaRouter)][:3] == documented
    assert [default for _, _, default in parameters(SchemaRouter)][1:3] == [None, None]


def test_router_without_a_cooldown_policy_cools_a_path_for_30_seconds() -> None:
    router, _ = seed_router(SchemaRouter(clock=FakeClock()))
    router.mark_access_unavailable("mp_api", "search")
    assert router.inspect().execution.cooldowns == {"mp_api.search": 30.0}


@pytest.mark.anyio
async def test_router_without_a_cooldown_policy_never_cools_a_path_for_more_than_300_seconds() -> None:
    clock = FakeClock()
    router = SchemaRouter(clock=clock, sleep=clock.sleep)
    router.register(mp_api(), FakeInvoker("mp_api", unavailable()))
    lengths = []
    for _ in range(7):
        with pytest.raises(AllRoutesUnavailableError):
            await router.invoke(PlanRequest(query="Si band gap"))
        lengths.append(router.inspect().execution.cooldowns["mp_api.search"])
        clock.advance(lengths[-1])
    assert lengths[0] == 30.0
    assert max(lengths) == lengths[-1] == 300.0


def test_router_takes_its_cooldown_policy_positionally() -> None:
    router, _ = seed_router(SchemaRouter(CooldownPolicy(base_seconds=5, max_seconds=10), FakeClock()))
    router.mark_access_unavailable("mp_api", "search")
    assert router.inspect().execution.cooldowns == {"mp_api.search": 5.0}


@pytest.mark.parametrize(
    ("method", "documented"),
    [
        (SchemaRouter.register, [("spec", POK, REQUIRED), ("invoker", POK, None)]),
        (SchemaRouter.remove_tool, [("name", POK, REQUIRED)]),
        (SchemaRouter.bind, [("name", POK, REQUIRED), ("invoker", POK, REQUIRED)]),
        (SchemaRouter.unbind, [("name", POK, REQUIRED)]),
        (SchemaRouter.plan, [("request", POK, REQUIRED)]),
        (SchemaRouter.plan_executable, [("request", POK, REQUIRED)]),
        (SchemaRouter.subscribe, [("handler", POK, REQUIRED)]),
    ],
    ids=["register", "remove_tool", "bind", "unbind", "plan", "plan_executable", "subscribe"],
)
def test_registration_and_planning_methods_take_the_documented_parameters(
    method: Callable[..., Any], documented: list[Param]
) -> None:
    assert_documented(method, documented)


@pytest.mark.anyio
async def test_invoker_is_called_with_the_compiled_tool_call() -> None:
    router, invokers = seed_router()
    plan = router.plan_executable(PlanRequest(query="Si band gap", preferred_tools=["mp_api"]))

    await router.invoke(plan)

    assert invokers["mp_api"].calls == [plan.primary]
    assert isinstance(invokers["mp_api"].calls[0], ToolCall)


def test_add_url_takes_the_url_then_keyword_only_options_with_the_documented_defaults() -> None:
    assert parameters(SchemaRouter.add_url) == [
        ("url", POK, REQUIRED),
        ("kind", KO, REQUIRED),
        ("name", KO, REQUIRED),
        ("provider", KO, None),
        ("access_mode", KO, None),
        ("headers", KO, None),
        ("base_url", KO, None),
        ("timeout_seconds", KO, 10.0),
        ("document_timeout_seconds", KO, 30.0),
        ("rate_limit", KO, None),
        ("cache", KO, None),
        ("options", VAR_KW, REQUIRED),
    ]


def test_add_url_is_awaited() -> None:
    assert inspect.iscoroutinefunction(SchemaRouter.add_url)


@pytest.mark.anyio
async def test_add_url_refuses_a_kind_other_than_openapi_or_optimade_and_registers_nothing() -> None:
    router = SchemaRouter()
    with pytest.raises(RegistrationError, match="kind"):
        await router.add_url("http://127.0.0.1:9/openapi.json", kind="graphql", name="g")
    assert router.tools == {}


def test_add_callable_takes_the_function_then_keyword_only_options_with_the_documented_defaults() -> None:
    assert_documented(
        SchemaRouter.add_callable,
        [
            ("fn", POK, REQUIRED),
            ("name", KO, REQUIRED),
            ("provider", KO, None),
            ("access_mode", KO, "python"),
            ("endpoint", KO, None),
            ("read_only", KO, None),
            ("fields", KO, None),
        ],
    )


def mp_summary_search(formula: str) -> dict[str, Any]:
    """A stand-in for a Python client call."""
    return {"band_gap": 0.61, "formula": formula}


def test_add_callable_registers_the_python_access_mode_by_default() -> None:
    router = SchemaRouter()
    router.add_callable(mp_summary_search, name="mp_python", fields=["band_gap"])
    assert router.tools["mp_python"].access_mode == "python"


def test_add_callable_records_the_provider_identity_in_the_contract() -> None:
    router = SchemaRouter()
    spec = router.add_callable(mp_summary_search, name="mp_python", provider="materials_project")
    assert router.tools["mp_python"].provider == "materials_project"
    assert router.inspect().tools["mp_python"].fingerprint == spec.fingerprint


# -- planning ---------------------------------------------------------------------------------
@pytest.mark.parametrize("scope", ["disabled", "same_provider", "cross_provider"])
def test_plan_request_accepts_each_documented_scope(scope: str) -> None:
    assert PlanRequest(query="q", fallback_scope=scope).fallback_scope == scope  # type: ignore[arg-type]


def test_plan_request_refuses_an_undocumented_scope() -> None:
    with pytest.raises(ValueError, match="fallback_scope"):
        PlanRequest(query="q", fallback_scope="everywhere")  # type: ignore[arg-type]


def test_plan_fallbacks_is_a_list_of_tool_calls() -> None:
    router, _ = seed_router()
    plan = router.plan(CHAIN)
    assert isinstance(plan.fallbacks, list) and all(isinstance(c, ToolCall) for c in plan.fallbacks)


def test_plan_calls_are_the_primary_then_the_fallbacks() -> None:
    router, _ = seed_router()
    plan = router.plan(CHAIN)
    assert plan.primary is not None and list(plan.calls) == [plan.primary, *plan.fallbacks]


def test_plan_need_holds_semantic_ids_not_field_names() -> None:
    router = router_with_field(FieldSpec(name="gap_ev", semantic_id="band_gap"))
    assert router.plan("what is gap_ev of Si").need == ["band_gap"]


def test_a_fallback_may_serve_the_semantic_id_under_another_field_name() -> None:
    router, _ = seed_router()
    renamed = FieldSpec(name="gap_ev", semantic_id="band_gap", path=["_alexandria_band_gap"])
    router.register(ToolSpec(name="alex", provider="alexandria", endpoints=[endpoint(fields=[renamed])]))
    plan = router.plan(CHAIN.model_copy(update={"max_fallbacks": 8}))
    alex = next(c for c in plan.fallbacks if c.tool == "alex")
    assert (alex.selected_fields, alex.evidence["band_gap"].field) == (["gap_ev"], "gap_ev")


@pytest.mark.parametrize("planner", ["plan", "plan_executable"])
@pytest.mark.parametrize("scope", ["disabled", "same_provider", "cross_provider"])
def test_every_registered_path_is_planned_or_rejected_exactly_once(planner: str, scope: str) -> None:
    router, _ = seed_router(SchemaRouter(clock=FakeClock()))
    router.register(ToolSpec(name="untagged", endpoints=[endpoint(fields=[band_gap()])]))
    router.register(
        ToolSpec(name="writer", provider="oqmd", endpoints=[endpoint(fields=[band_gap()], read_only=False)])
    )
    router.register(ToolSpec(name="dens", provider="oqmd", endpoints=[endpoint(fields=[formula("f")])]))
    router.unbind("mp_python")
    router.mark_access_unavailable("mp_optimade", "search", seconds=5)
    request = CHAIN.model_copy(update={"fallback_scope": scope, "max_fallbacks": 1})

    plan: Plan = getattr(router, planner)(request)

    seen = Counter([c.access_path for c in plan.calls] + [r.access_path for r in plan.rejected])
    assert set(seen) == {f"{t}.search" for t in router.tools}
    assert max(seen.values()) == 1


def test_each_rejection_names_tool_endpoint_and_reason() -> None:
    router, _ = seed_router()
    plan = router.plan(PlanRequest(query="Si band gap", preferred_tools=["mp_api"]))
    assert set(Rejection.model_fields) == {"tool", "endpoint", "reason"}
    assert {(r.tool, r.endpoint) for r in plan.rejected} == {
        ("mp_optimade", "search"),
        ("mp_python", "search"),
        ("oqmd_api", "search"),
    }
    assert all(r.reason for r in plan.rejected)


def test_tool_call_fields_are_exactly_the_documented_ones() -> None:
    assert set(ToolCall.model_fields) == {
        "tool",
        "endpoint",
        "provider",
        "access_mode",
        "tool_fingerprint",
        "endpoint_fingerprint",
        "arguments",
        "selected_fields",
        "server_projection",
        "scope",
        "read_only",
        "evidence",
        "explanation",
    }


def test_evidence_names_the_serving_field_for_every_semantic_id_of_the_need() -> None:
    router, _ = seed_router()
    plan = router.plan(CHAIN.model_copy(update={"query": "Si band gap and chemical formula"}))
    assert plan.need == ["band_gap", "formula"]
    for call in plan.calls:
        assert list(call.evidence) == list(plan.need)
        assert [call.evidence[sid].field for sid in plan.need] == list(call.selected_fields)


def test_evidence_records_the_alias_that_matched_the_query() -> None:
    plan = elastic_router().plan(
        PlanRequest(
            query="Si의 탄성계수", preferred_tools=["provider_a_api"], fallback_scope="cross_provider"
        )
    )
    assert len(plan.calls) == 2
    evidence = [c.evidence["elastic_modulus"] for c in plan.calls]
    assert [(e.matched, e.match_kind) for e in evidence] == [("탄성계수", "alias")] * 2


# -- execution --------------------------------------------------------------------------------
@pytest.mark.parametrize("method", [SchemaRouter.invoke, SchemaRouter.stream], ids=["invoke", "stream"])
def test_invoke_and_stream_take_the_budget_as_keyword_only(method: Callable[..., Any]) -> None:
    assert_documented(method, [("request_or_plan", POK, REQUIRED), ("budget", KO, None)])


def test_stream_is_an_async_iterator_and_invoke_is_awaited() -> None:
    assert inspect.isasyncgenfunction(SchemaRouter.stream)
    assert inspect.iscoroutinefunction(SchemaRouter.invoke)


@pytest.mark.anyio
async def test_run_error_event_carries_the_error_the_run_raised() -> None:
    router, _, _ = fake_router(down=all_down())

    events = await collect(router, CHAIN)

    last = events[-1]
    assert isinstance(last, RunErrorEvent) and isinstance(last.exception, AllRoutesUnavailableError)


def test_tool_result_fields_are_exactly_the_documented_ones() -> None:
    assert set(ToolResult.model_fields) == {
        "tool",
        "endpoint",
        "provider",
        "access_mode",
        "records",
        "attempts",
        "route",
        "events",
        "plan",
        "cached",
        "stale",
        "age_seconds",
        "provenance",
        "total",
        "truncated",
    }


def test_router_event_envelope_has_type_run_id_and_timestamp() -> None:
    assert {"type", "run_id", "timestamp"} <= set(RouterEvent.model_fields)


@pytest.mark.parametrize(
    ("error", "parent"),
    [(NoRouteError, PlanningError), (AllRoutesUnavailableError, InvocationUnavailableError)],
    ids=["NoRouteError", "AllRoutesUnavailableError"],
)
def test_documented_error_subclass_relations_hold(error: type[Exception], parent: type[Exception]) -> None:
    assert issubclass(error, parent) and issubclass(error, SchemaRouterError)


def _nan_cooldown(router: SchemaRouter) -> None:
    router.mark_access_unavailable("mp_api", "search", seconds=math.nan)


def _subscribe_non_callable(router: SchemaRouter) -> None:
    router.subscribe("print")  # type: ignore[arg-type]


async def _zero_interval(router: SchemaRouter) -> None:
    await router.start_health_monitor(interval_seconds=0)


async def _start_twice(router: SchemaRouter) -> None:
    await router.start_health_monitor()
    try:
        await router.start_health_monitor()
    finally:
        await router.stop_health_monitor()


def _mark_unknown_path(router: SchemaRouter) -> None:
    router.mark_access_unavailable("ghost", "search")


def _register_non_contract(router: SchemaRouter) -> None:
    router.register({"name": "mp_api"})  # type: ignore[arg-type]


@pytest.mark.anyio
@pytest.mark.parametrize(
    "misuse",
    [
        _mark_unknown_path,
        _register_non_contract,
        _nan_cooldown,
        _subscribe_non_callable,
        _zero_interval,
        _start_twice,
    ],
    ids=lambda fn: fn.__name__.strip("_"),
)
async def test_router_misuse_raises_a_schema_router_error(
    misuse: Callable[[SchemaRouter], Awaitable[None] | None],
) -> None:
    router, _, _ = health_router()
    with pytest.raises(SchemaRouterError):
        outcome = misuse(router)
        if inspect.isawaitable(outcome):
            await outcome


@pytest.mark.anyio
async def test_runtime_never_uses_a_route_registered_after_the_plan_was_compiled() -> None:
    router, _, _ = fake_router(down=all_down())
    late = FakeInvoker("oqmd_api")
    late_spec = ToolSpec(name="late", provider="materials_project", endpoints=[endpoint(fields=[band_gap()])])

    async def primary(call: ToolCall) -> Any:
        router.register(late_spec, late)
        raise unavailable("mp_api is down")

    router.bind("mp_api", primary)

    with pytest.raises(AllRoutesUnavailableError):
        await router.invoke(CHAIN.model_copy(update={"max_fallbacks": 8}))

    assert late.calls == []


@pytest.mark.anyio
async def test_a_fallback_that_lost_its_binding_during_the_run_is_skipped() -> None:
    router, invokers = losing_mp_optimade_while_mp_api_runs()

    result = await router.invoke(CHAIN)

    assert result.route == ["mp_api.search", "mp_python.search"]
    assert invokers["mp_optimade"].calls == []


@pytest.mark.anyio
async def test_fallback_events_record_leaving_the_failed_route_when_a_later_route_lost_its_binding() -> None:
    router, _ = losing_mp_optimade_while_mp_api_runs()

    events = await collect(router, CHAIN)

    fallbacks = [e for e in events if isinstance(e, ToolFallbackEvent)]
    assert "mp_api" in [e.from_tool for e in fallbacks]
    assert fallbacks[-1].to_tool == "mp_python"


# -- health -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("method", "documented"),
    [
        (
            SchemaRouter.mark_access_unavailable,
            [
                ("tool", POK, REQUIRED),
                ("endpoint", POK, REQUIRED),
                ("seconds", KO, None),
                ("reason", KO, None),
            ],
        ),
        (SchemaRouter.mark_access_available, [("tool", POK, REQUIRED), ("endpoint", POK, REQUIRED)]),
        (
            SchemaRouter.register_health_probe,
            [("tool", POK, REQUIRED), ("endpoint", POK, REQUIRED), ("probe", POK, REQUIRED)],
        ),
        (
            SchemaRouter.start_health_monitor,
            [("interval_seconds", POK, 30), ("probe_timeout_seconds", POK, 5), ("max_concurrency", POK, 4)],
        ),
        (SchemaRouter.stop_health_monitor, []),
    ],
    ids=[
        "mark_access_unavailable",
        "mark_access_available",
        "register_health_probe",
        "start_health_monitor",
        "stop_health_monitor",
    ],
)
def test_health_methods_take_the_documented_parameters(
    method: Callable[..., Any], documented: list[Param]
) -> None:
    assert_documented(method, documented)


@pytest.mark.anyio
async def test_health_monitor_started_without_settings_uses_30_5_and_4() -> None:
    router, sleep, _ = health_router()
    router.register_health_probe("mp_api", "search", FakeProbe(True))

    await router.start_health_monitor()
    await anyio.wait_all_tasks_blocked()

    health = router.inspect().health
    assert (health.interval_seconds, health.probe_timeout_seconds, health.max_concurrency) == (30, 5, 4)
    assert sleep.requested == [30]
    await router.stop_health_monitor()


@pytest.mark.anyio
async def test_a_failed_probe_changes_availability_only() -> None:
    router, _, _ = health_router()
    before = (router.tools["mp_api"].fingerprint, router.binding_state("mp_api"))
    router.register_health_probe("mp_api", "search", FakeProbe(False))

    await router.start_health_monitor()
    await anyio.wait_all_tasks_blocked()
    await router.stop_health_monitor()

    assert router.inspect().execution.unavailable_access_paths == ["mp_api.search"]
    assert (router.tools["mp_api"].fingerprint, router.binding_state("mp_api")) == before


def test_inspect_tools_describes_each_registered_contract() -> None:
    router, _ = seed_router()
    tools = router.inspect().tools
    assert set(tools) == set(router.tools)
    snapshot, spec = tools["mp_optimade"], router.tools["mp_optimade"]
    assert (snapshot.provider, snapshot.access_mode, snapshot.fingerprint) == (
        "materials_project",
        "optimade",
        spec.fingerprint,
    )


def test_redis_store_takes_a_url_and_the_schemarouter_namespace_by_default() -> None:
    from schemarouter_integrations.stores import RedisAvailabilityStore

    assert_documented(RedisAvailabilityStore, [("url", POK, REQUIRED), ("namespace", POK, "schemarouter")])


# -- framework packages -----------------------------------------------------------------------
def test_langchain_tool_takes_the_documented_settings_as_keywords() -> None:
    from schemarouter_integrations.langchain import SchemaRouterTool

    router, _ = seed_router()
    budget = RunBudget(max_tool_calls=2)
    tool = SchemaRouterTool(
        router=router,
        name="materials",
        description=None,
        fallback_scope="cross_provider",
        max_fallbacks=2,
        preferred_tools=["mp_api"],
        budget=budget,
    )
    assert (tool.name, tool.fallback_scope, tool.max_fallbacks, tool.budget) == (
        "materials",
        "cross_provider",
        2,
        budget,
    )
    assert list(tool.preferred_tools) == ["mp_api"] and tool.description


def test_llamaindex_tool_spec_takes_the_router_positionally_and_the_same_settings() -> None:
    from schemarouter_integrations.llamaindex import SchemaRouterToolSpec

    router, _ = seed_router()
    budget = RunBudget(max_attempts=3)
    spec = SchemaRouterToolSpec(
        router,
        name="materials",
        description=None,
        fallback_scope="same_provider",
        max_fallbacks=1,
        preferred_tools=["mp_api"],
        budget=budget,
    )
    (tool,) = spec.to_tool_list()
    assert tool.metadata.name == "materials"
    assert (spec.options.fallback_scope, spec.options.max_fallbacks, spec.options.budget) == (
        "same_provider",
        1,
        budget,
    )


def test_model_arguments_include_those_of_a_preferred_tool_the_router_would_call() -> None:
    from schemarouter_integrations.langchain import SchemaRouterTool

    router = SchemaRouter()
    router.add_callable(
        mp_summary_search, name="mp_python", provider="materials_project", fields=["band_gap"]
    )
    request = PlanRequest(query="Si band gap", arguments={"formula": "Si"}, preferred_tools=["mp_python"])
    assert router.plan(request).primary is not None

    tool = SchemaRouterTool(router=router, name="materials", preferred_tools=["mp_python"])

    assert "formula" in tool.tool_call_schema.model_json_schema()["properties"]  # type: ignore[union-attr]
