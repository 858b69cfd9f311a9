"""Router events as LlamaIndex instrumentation events, dispatched inside a span."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest
from llama_index.core.instrumentation.events import BaseEvent
from llama_index.core.instrumentation.span_handlers import SimpleSpanHandler

from schemarouter_integrations import SchemaRouter, ToolResult
from schemarouter_integrations import events as router_events
from schemarouter_integrations.events import EVENT_TYPES, RouterEvent
from schemarouter_integrations.llamaindex import (
    OtherRouterEvent,
    RouteUnavailableEvent,
    RunEndEvent,
    RunErrorEvent,
    RunStartEvent,
    SchemaRouterEvent,
    SchemaRouterToolSpec,
    ToolFallbackEvent,
    instrument_router,
    instrumentation_event,
)
from schemarouter_integrations.llamaindex._events import INSTRUMENTATION_EVENTS
from tests.support.llamaindex import CapturingHandler, capturing, recording_spans
from tests.support.seed import seed_router

ASK = {"query": "Si band gap", "formula": "Si"}
OWN_FIELDS = {"router_event_type", "run_id", "seq"}


@pytest.fixture
def spans() -> Iterator[SimpleSpanHandler]:
    with recording_spans() as handler:
        yield handler


def spec_of(router: SchemaRouter) -> SchemaRouterToolSpec:
    return SchemaRouterToolSpec(router, fallback_scope="same_provider", preferred_tools=["mp_api"])


def fallback_event() -> router_events.ToolFallbackEvent:
    return router_events.ToolFallbackEvent(
        run_id="run-1",
        seq=5,
        timestamp=1_700_000_000.0,
        from_tool="mp_api",
        from_endpoint="search",
        to_tool="mp_optimade",
        to_endpoint="search",
        from_provider="materials_project",
        to_provider="materials_project",
        from_access_mode="openapi",
        to_access_mode="optimade",
        scope="same_provider",
        same_provider=True,
        reason="unavailable",
    )


# -- the event classes --------------------------------------------------------------------


BUILT_IN_TYPES = sorted(
    name for name, cls in EVENT_TYPES.items() if cls.__module__.startswith("schemarouter_integrations")
)
"""The package's own event kinds (a test elsewhere declares one more, built when first sent)."""


@pytest.mark.parametrize("event_type", BUILT_IN_TYPES)
def test_every_router_event_type_has_an_instrumentation_event_with_its_payload(event_type: str) -> None:
    source = EVENT_TYPES[event_type]
    target = INSTRUMENTATION_EVENTS[event_type]
    assert issubclass(target, BaseEvent)
    payload = set(source.model_fields) - {"type", "run_id", "seq", "timestamp"}
    assert set(target.model_fields) - set(BaseEvent.model_fields) - OWN_FIELDS == payload


def test_instrumentation_event_carries_type_run_and_payload() -> None:
    event = instrumentation_event(fallback_event())
    assert isinstance(event, ToolFallbackEvent)
    assert (event.router_event_type, event.run_id, event.seq) == ("tool.fallback", "run-1", 5)
    assert (event.from_tool, event.to_tool, event.scope) == ("mp_api", "mp_optimade", "same_provider")
    assert event.timestamp.timestamp() == 1_700_000_000.0


def test_instrumentation_event_dumps_to_json_with_its_class_name() -> None:
    data = instrumentation_event(fallback_event()).model_dump(mode="json")
    assert data["class_name"] == "ToolFallbackEvent"
    assert data["to_access_mode"] == "optimade"


def test_run_error_event_keeps_the_exception_out_of_the_dump() -> None:
    error = ValueError("boom")
    event = instrumentation_event(
        router_events.RunErrorEvent(error_type="ValueError", error="boom", exception=error)
    )
    assert isinstance(event, RunErrorEvent)
    assert event.exception is error
    assert "exception" not in event.model_dump()


def test_unknown_router_event_type_becomes_other_router_event() -> None:
    event = instrumentation_event(RouterEvent(type="example.unknown", run_id="run-1"))
    assert isinstance(event, OtherRouterEvent)
    assert event.router_event_type == "example.unknown"


# -- dispatch inside the span of a call -----------------------------------------------------


@pytest.mark.anyio
async def test_call_dispatches_every_router_event_of_the_run_in_order(
    router: SchemaRouter, captured: CapturingHandler
) -> None:
    output = await spec_of(router).to_tool_list()[0].acall(**ASK)
    seen = captured.of(SchemaRouterEvent)
    assert [e.router_event_type for e in seen] == [e.type for e in output.raw_output.events] + ["run.end"]
    assert {e.run_id for e in seen} == {output.raw_output.events[0].run_id}


@pytest.mark.anyio
async def test_handler_sees_the_fallback(router: SchemaRouter, captured: CapturingHandler) -> None:
    await spec_of(router).to_tool_list()[0].acall(**ASK)
    [fallback] = captured.of(ToolFallbackEvent)
    assert (fallback.from_tool, fallback.to_tool) == ("mp_api", "mp_optimade")
    assert fallback.same_provider is True
    assert fallback.reason == "unavailable"


@pytest.mark.anyio
async def test_run_end_event_carries_the_tool_result(
    router: SchemaRouter, captured: CapturingHandler
) -> None:
    output = await spec_of(router).to_tool_list()[0].acall(**ASK)
    [end] = captured.of(RunEndEvent)
    assert isinstance(end.result, ToolResult)
    assert end.result is output.raw_output


@pytest.mark.anyio
async def test_events_carry_the_span_of_the_routed_call(
    router: SchemaRouter, captured: CapturingHandler, spans: SimpleSpanHandler
) -> None:
    await spec_of(router).to_tool_list()[0].acall(**ASK)
    [span] = [s for s in spans.completed_spans if s.id_.startswith("SchemaRouterToolSpec.acall-")]
    assert {e.span_id for e in captured.of(SchemaRouterEvent)} == {span.id_}
    parent = next(s for s in spans.completed_spans if s.id_ == span.parent_id)
    assert parent.id_.startswith("FunctionTool.acall-")


def test_sync_call_events_carry_the_span_too(
    router: SchemaRouter, captured: CapturingHandler, spans: SimpleSpanHandler
) -> None:
    spec_of(router).to_tool_list()[0].call(**ASK)
    [span] = [s for s in spans.completed_spans if s.id_.startswith("SchemaRouterToolSpec.acall-")]
    assert {e.span_id for e in captured.of(SchemaRouterEvent)} == {span.id_}
    assert span.parent_id is not None and span.parent_id.startswith("FunctionTool.call-")


@pytest.mark.anyio
async def test_package_dispatcher_sees_the_router_events(router: SchemaRouter) -> None:
    with capturing("schemarouter_integrations.llamaindex") as package:
        await spec_of(router).to_tool_list()[0].acall(**ASK)
    assert package.events
    assert all(isinstance(e, SchemaRouterEvent) for e in package.events)


@pytest.mark.anyio
async def test_error_output_still_dispatches_the_run_error(captured: CapturingHandler) -> None:
    router, _ = seed_router(down=("mp_api",))
    output = await SchemaRouterToolSpec(router).to_tool_list()[0].acall(**ASK)
    assert output.is_error
    [error] = captured.of(RunErrorEvent)
    assert error.error_type == "AllRoutesUnavailableError"


# -- events outside tool calls --------------------------------------------------------------


def test_instrument_router_dispatches_events_outside_runs(
    router: SchemaRouter, captured: CapturingHandler
) -> None:
    stop = instrument_router(router)
    try:
        router.mark_access_unavailable("mp_optimade", "search", seconds=10, reason="maintenance")
    finally:
        stop()
    [mark] = captured.of(RouteUnavailableEvent)
    assert (mark.tool, mark.run_id, mark.reason) == ("mp_optimade", None, "maintenance")


@pytest.mark.anyio
async def test_instrument_router_dispatches_direct_invocations(captured: CapturingHandler) -> None:
    router, _ = seed_router()
    stop = instrument_router(router)
    try:
        await router.invoke("Si band gap")
    finally:
        stop()
    assert len(captured.of(RunStartEvent)) == 1


@pytest.mark.anyio
async def test_instrument_router_does_not_repeat_tool_call_events(
    router: SchemaRouter, captured: CapturingHandler
) -> None:
    stop = instrument_router(router)
    try:
        await spec_of(router).to_tool_list()[0].acall(**ASK)
    finally:
        stop()
    assert len(captured.of(RunStartEvent)) == 1
    assert len(captured.of(ToolFallbackEvent)) == 1


def test_instrument_router_stops_when_told(router: SchemaRouter, captured: CapturingHandler) -> None:
    instrument_router(router)()
    router.mark_access_unavailable("mp_optimade", "search")
    assert captured.of(RouteUnavailableEvent) == []


# -- the optional dependency ------------------------------------------------------------------


def test_import_without_llama_index_names_the_extra() -> None:
    code = (
        "import sys\n"
        "sys.modules['llama_index'] = None\n"
        "try:\n"
        "    import schemarouter_integrations.llamaindex\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "schemarouter-integrations[llamaindex]" in out.stdout
