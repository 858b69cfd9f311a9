"""OpenTelemetry spans of router runs (SDK in-memory exporter): the seed chain that fell back
and answered, an all-down run, concurrency, framework tool names, metrics, and no leaks."""

from __future__ import annotations

import json
import subprocess
import sys

import anyio
import pytest
from opentelemetry.trace import StatusCode

from schemarouter_integrations import (
    AllRoutesUnavailableError,
    InvocationUnavailableError,
    PlanRequest,
    RetryPolicy,
    SchemaRouter,
)
from schemarouter_integrations.otel import DEFAULT_TOOL_NAME, error_type
from tests.support.langchain import materials_tool, tool_call
from tests.support.otel import event_names, recording, tracer_provider
from tests.support.seed import FakeInvoker, seed_router

pytestmark = pytest.mark.anyio

SEED = PlanRequest(query="band gap of Si", arguments={"formula": "Si"}, fallback_scope="cross_provider")
ALL = ("mp_api", "mp_optimade", "mp_python", "oqmd_api")


async def test_seed_chain_is_one_run_span_with_a_child_per_attempted_route() -> None:
    router, _ = seed_router(down=("mp_api",))
    with recording(router) as rec:
        await router.invoke(SEED)
    run = rec.one(f"execute_tool {DEFAULT_TOOL_NAME}")
    assert run.parent is None
    assert [s.name for s in rec.children_of(run)] == ["mp_api.search", "mp_optimade.search"]
    assert len(rec.spans) == 3


async def test_run_span_follows_the_genai_and_openinference_conventions() -> None:
    router, _ = seed_router(down=("mp_api",))
    with recording(router) as rec:
        await router.invoke(SEED)
    attrs = rec.one("execute_tool schemarouter").attributes
    assert attrs["gen_ai.operation.name"] == "execute_tool"
    assert attrs["gen_ai.tool.name"] == "schemarouter"
    assert attrs["openinference.span.kind"] == "TOOL"
    assert attrs["input.value"] == "band gap of Si"
    assert attrs["schemarouter.route"] == "mp_optimade.search"
    assert attrs["schemarouter.fallbacks"] == 1
    output = json.loads(str(attrs["output.value"]))
    assert output["records"] == [{"band_gap": 0.61}]
    assert output["route"]["routes_tried"] == ["mp_api.search", "mp_optimade.search"]
    metadata = json.loads(str(attrs["metadata"]))
    assert metadata["route"] == "mp_optimade.search" and metadata["fallbacks"] == 1


async def test_a_run_whose_fallback_answered_has_no_error_but_the_failed_route_has() -> None:
    router, _ = seed_router(down=("mp_api",))
    with recording(router) as rec:
        await router.invoke(SEED)
    run = rec.one("execute_tool schemarouter")
    failed, answered = rec.children_of(run)
    assert run.status.status_code is not StatusCode.ERROR and "error.type" not in run.attributes
    assert failed.status.status_code is StatusCode.ERROR
    assert failed.attributes["error.type"] == "unavailable"
    assert answered.status.status_code is not StatusCode.ERROR and "error.type" not in answered.attributes


async def test_route_spans_name_provider_access_mode_scope_and_attempts() -> None:
    router, _ = seed_router(down=("mp_api",))
    with recording(router) as rec:
        await router.invoke(SEED)
    failed, answered = rec.children_of(rec.one("execute_tool schemarouter"))
    assert {k: failed.attributes[k] for k in ("schemarouter.provider", "schemarouter.access_mode")} == {
        "schemarouter.provider": "materials_project",
        "schemarouter.access_mode": "openapi",
    }
    assert failed.attributes["schemarouter.scope"] == "primary"
    assert answered.attributes["schemarouter.scope"] == "same_provider"
    assert answered.attributes["schemarouter.access_mode"] == "optimade"
    assert (failed.attributes["schemarouter.attempts"], answered.attributes["schemarouter.attempts"]) == (
        1,
        1,
    )


async def test_fallback_is_a_run_span_event_and_unavailability_an_event_of_the_failed_route() -> None:
    router, _ = seed_router(down=("mp_api",))
    with recording(router) as rec:
        await router.invoke(SEED)
    run = rec.one("execute_tool schemarouter")
    failed, _ = rec.children_of(run)
    assert event_names(run) == ["tool.fallback"]
    fallback = run.events[0].attributes or {}
    assert (fallback["from_tool"], fallback["to_tool"], fallback["scope"], fallback["reason"]) == (
        "mp_api",
        "mp_optimade",
        "same_provider",
        "unavailable",
    )
    assert event_names(failed) == ["route.unavailable"]


async def test_retries_are_events_of_the_route_span() -> None:
    router, _ = seed_router(
        down=("mp_api",), retry=RetryPolicy(max_attempts=2, backoff_seconds=0, jitter=False)
    )
    with recording(router) as rec:
        await router.invoke(SEED)
    failed = rec.one("mp_api.search")
    assert event_names(failed) == ["tool.retry", "route.unavailable"]
    assert failed.attributes["schemarouter.attempts"] == 2


async def test_an_all_down_run_has_error_status_on_the_run_and_on_every_route() -> None:
    router, _ = seed_router(down=ALL)
    with recording(router) as rec, pytest.raises(AllRoutesUnavailableError):
        await router.invoke(SEED)
    run = rec.one("execute_tool schemarouter")
    routes = rec.children_of(run)
    assert [s.name for s in routes] == [f"{tool}.search" for tool in ALL]
    assert all(s.status.status_code is StatusCode.ERROR for s in routes)
    assert run.status.status_code is StatusCode.ERROR
    assert run.attributes["error.type"] == "all_routes_unavailable"
    assert event_names(run) == ["tool.fallback"] * 3
    metadata = json.loads(str(run.attributes["metadata"]))
    assert [a["access_path"] for a in metadata["attempts"]] == [f"{tool}.search" for tool in ALL]


async def test_run_span_nests_under_the_callers_current_span() -> None:
    router, _ = seed_router(down=("mp_api",))
    with recording(router) as rec:
        tracer = rec.tracer_provider.get_tracer("app")
        with tracer.start_as_current_span("agent step"):
            await router.invoke(SEED)
    outer, run = rec.one("agent step"), rec.one("execute_tool schemarouter")
    assert run.parent is not None and run.parent.span_id == outer.context.span_id
    assert run.context.trace_id == outer.context.trace_id


async def test_concurrent_runs_keep_their_own_spans() -> None:
    router, _ = seed_router(down=("mp_api",))
    gate = anyio.Event()

    async def slow(call: object) -> object:
        await gate.wait()
        return {"data": [{"entry_id": 1, "name": "Si", "band_gap": 0.6}]}

    router.register(seed_router()[0].tools["oqmd_api"], slow)
    single = PlanRequest(query="band gap of Si", preferred_tools=["oqmd_api"])
    with recording(router) as rec:
        async with anyio.create_task_group() as tg:
            tg.start_soon(router.invoke, single)
            tg.start_soon(router.invoke, SEED)
            await anyio.sleep(0.01)
            gate.set()
    runs = rec.named("execute_tool schemarouter")
    assert len(runs) == 2
    trees = sorted([s.name for s in rec.children_of(run)] for run in runs)
    assert trees == [["mp_api.search", "mp_optimade.search"], ["oqmd_api.search"]]
    assert len({run.context.trace_id for run in runs}) == 2


async def test_a_framework_tool_names_the_run_span_and_gives_the_call_id() -> None:
    tool = materials_tool(down=("mp_api",))
    with recording(tool.router) as rec:
        await tool.ainvoke(tool_call())
    run = rec.one("execute_tool materials")
    assert run.attributes["gen_ai.tool.name"] == "materials"
    assert run.attributes["gen_ai.tool.call.id"] == "call-1"
    assert [s.name for s in rec.children_of(run)] == ["mp_api.search", "mp_optimade.search"]


async def test_metrics_count_fallbacks_route_failures_and_time_runs() -> None:
    router, _ = seed_router(down=("mp_api",))
    with recording(router) as rec:
        await router.invoke(SEED)
        (fallbacks,) = rec.metric_points("schemarouter.fallbacks")
        (failures,) = rec.metric_points("schemarouter.route.failures")
        (duration,) = rec.metric_points("schemarouter.run.duration")
        (cooling,) = rec.metric_points("schemarouter.cooldowns.active")
    assert fallbacks.value == 1 and fallbacks.attributes["schemarouter.reason"] == "unavailable"
    assert fallbacks.attributes["schemarouter.provider"] == "materials_project"
    assert failures.value == 1 and failures.attributes["error.type"] == "unavailable"
    assert duration.count == 1 and duration.attributes["gen_ai.tool.name"] == "schemarouter"
    assert cooling.value == 1 and cooling.attributes["schemarouter.provider"] == "materials_project"


async def test_uninstrument_stops_recording() -> None:
    router, _ = seed_router(down=("mp_api",))
    with recording(router) as rec:
        rec.handle.uninstrument()
        await router.invoke(SEED)
    assert rec.spans == []


async def test_spans_without_any_provider_configured_cost_nothing() -> None:
    _, exporter = tracer_provider()
    router = SchemaRouter()
    router.register(seed_router()[0].tools["oqmd_api"], FakeInvoker("oqmd_api"))
    from schemarouter_integrations.otel import instrument

    with instrument(router):  # the global no-op providers
        result = await router.invoke("band gap of Si")
    assert result.tool == "oqmd_api" and exporter.get_finished_spans() == ()


def test_error_type_comes_from_the_status_the_message_or_the_class() -> None:
    assert error_type("InvocationUnavailableError", "GET /x answered 503 Service Unavailable") == "http.503"
    assert error_type("InvocationUnavailableError", "GET /x: HTTP 429") == "http.429"
    assert error_type("InvocationUnavailableError", "GET /x timed out (ReadTimeout)") == "timeout"
    assert error_type("InvocationUnavailableError", "GET /x: could not connect (ConnectError)") == "connect"
    assert error_type("InvocationUnavailableError", "mp_api is down") == "unavailable"
    assert error_type("InvocationUnavailableError", "", status_code=502) == "http.502"
    assert error_type("BudgetExceededError", "max_tool_calls=1") == "budget_exceeded"


async def test_error_type_of_an_http_status_reaches_the_route_span() -> None:
    router, _ = seed_router()
    router.bind(
        "mp_api",
        FakeInvoker("mp_api", InvocationUnavailableError("GET /s answered 503 Busy", status_code=503)),
    )
    with recording(router) as rec:
        await router.invoke(SEED)
    assert rec.one("mp_api.search").attributes["error.type"] == "http.503"


def test_importing_the_package_imports_no_opentelemetry_module() -> None:
    code = (
        "import sys, schemarouter_integrations\n"
        "heavy = ('opentelemetry', 'schemarouter_integrations.otel', 'openinference', 'langgraph')\n"
        "print(sorted(m for m in sys.modules if m.startswith(heavy)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
