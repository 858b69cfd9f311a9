"""An event kind is one class: declaring a ``RouterEvent`` subclass with its own ``type``
registers it, JSON brings it back typed, and every face carries it without a rule of its own
(``route.slow`` here is declared by the tests alone)."""

from __future__ import annotations

import json
from typing import Any, Literal

import pytest
from pydantic import TypeAdapter

from schemarouter_integrations import PlanRequest, ToolResult
from schemarouter_integrations._framework import event_from_json
from schemarouter_integrations.events import EVENT_TYPES, AnyRouterEvent, RouterEvent, RunEndEvent
from schemarouter_integrations.langchain import SchemaRouterCallbackHandler, SchemaRouterTool
from schemarouter_integrations.llamaindex import SchemaRouterToolSpec
from schemarouter_integrations.mcp import router_mcp_server
from tests.support.langchain import tool_call
from tests.support.llamaindex import capturing
from tests.support.otel import recording
from tests.support.seed import seed_router
from tests.support.slow_routes import RouteSlowEvent, slow_after_each_start

pytestmark = pytest.mark.anyio
ASK = {"query": "Si band gap", "formula": "Si"}
SLOW = RouteSlowEvent(run_id="r1", seq=3, tool="mp_api", endpoint="search", waited_seconds=2.5)


# -- declared once -------------------------------------------------------------------------
def test_declaring_an_event_class_registers_its_type() -> None:
    assert EVENT_TYPES["route.slow"] is RouteSlowEvent


def test_an_event_of_a_declared_kind_comes_back_typed_from_json() -> None:
    assert event_from_json(SLOW.model_dump(mode="json")) == SLOW
    assert TypeAdapter(AnyRouterEvent).validate_json(SLOW.model_dump_json()) == SLOW


async def test_a_result_holding_an_event_of_a_declared_kind_round_trips_through_json() -> None:
    router, _ = seed_router()
    result = await router.invoke(PlanRequest(query="band gap of Si", arguments={"formula": "Si"}))
    data = result.model_dump(mode="json")
    data["events"].insert(2, SLOW.model_dump(mode="json"))
    back = ToolResult.model_validate_json(json.dumps(data))
    assert isinstance(back.events[2], RouteSlowEvent) and back.events[2] == SLOW
    assert back.model_dump(mode="json") == data


async def test_a_run_end_whose_result_holds_a_declared_kind_comes_back_with_its_result() -> None:
    router, _ = seed_router()
    result = await router.invoke(PlanRequest(query="band gap of Si", arguments={"formula": "Si"}))
    data = result.model_dump(mode="json")
    data["events"].insert(2, SLOW.model_dump(mode="json"))
    end = RunEndEvent(run_id="r1", seq=9, tool="mp_api", endpoint="search", fallbacks=0)
    back = event_from_json({**end.model_dump(mode="json"), "result": data})
    assert isinstance(back, RunEndEvent) and back.result is not None
    assert back.result.events[2] == SLOW


def test_a_second_class_for_a_declared_type_is_refused() -> None:
    with pytest.raises(TypeError, match=r"route\.slow"):

        class Again(RouterEvent):
            type: Literal["route.slow"] = "route.slow"


def test_a_subclass_of_a_kind_without_a_type_of_its_own_declares_no_kind() -> None:
    before = dict(EVENT_TYPES)

    class Slower(RouteSlowEvent):
        pass

    assert before == EVENT_TYPES and Slower.model_fields["type"].default == "route.slow"


def test_an_event_class_must_name_its_type() -> None:
    with pytest.raises(TypeError, match="needs its event type"):

        class Nameless(RouterEvent):
            type: str = ""


# -- every face carries it -----------------------------------------------------------------
async def test_langchain_callback_handlers_get_an_event_of_a_kind_declared_later(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    router, _ = seed_router()
    slow_after_each_start(router, monkeypatch)
    tool = SchemaRouterTool(router=router, name="materials", fallback_scope="cross_provider")
    handler = SchemaRouterCallbackHandler()
    await tool.ainvoke(tool_call(), config={"callbacks": [handler]})
    slow = [e for e in handler.events if e.type == "route.slow"]
    assert len(slow) == 1 and isinstance(slow[0], RouteSlowEvent)
    assert slow[0].access_path == "mp_api.search" and slow[0].waited_seconds == 2.5


async def test_llamaindex_handlers_get_a_typed_instrumentation_event_of_a_kind_declared_later(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    router, _ = seed_router()
    slow_after_each_start(router, monkeypatch)
    tool = SchemaRouterToolSpec(router, preferred_tools=["mp_api"]).to_tool_list()[0]
    with capturing() as handler:
        await tool.acall(**ASK)
    slow = [e for e in handler.events if getattr(e, "router_event_type", None) == "route.slow"]
    assert len(slow) == 1
    assert type(slow[0]).__name__ == "RouteSlowEvent"
    assert slow[0].waited_seconds == 2.5 and slow[0].access_path == "mp_api.search"  # type: ignore[attr-defined]


async def test_an_mcp_client_gets_a_kind_declared_later_at_the_log_level_its_class_carries(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mcp import Client

    router, _ = seed_router()
    slow_after_each_start(router, monkeypatch)
    server = router_mcp_server(router, preferred_tools=["mp_api"])
    logs: list[Any] = []
    steps: list[str | None] = []

    async def on_log(params: Any) -> None:
        logs.append(params)

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        steps.append(message)

    async with Client(server, logging_callback=on_log, log_level="info") as client:
        result = await client.call_tool("data_lookup", dict(ASK), progress_callback=on_progress)
    assert not result.is_error
    slow = [log for log in logs if log.data["type"] == "route.slow"]
    assert len(slow) == 1 and slow[0].level == "warning" and slow[0].data["waited_seconds"] == 2.5
    assert "route.slow" in steps


async def test_an_mcp_client_listening_only_at_warning_still_gets_a_kind_declared_later(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mcp import Client

    router, _ = seed_router()
    slow_after_each_start(router, monkeypatch)
    server = router_mcp_server(router, preferred_tools=["mp_api"])
    logs: list[Any] = []

    async def on_log(params: Any) -> None:
        logs.append(params)

    async with Client(server, logging_callback=on_log, log_level="warning") as client:
        await client.call_tool("data_lookup", dict(ASK))
    assert [log.data["type"] for log in logs] == ["route.slow"]


async def test_opentelemetry_puts_a_kind_declared_later_on_its_route_span(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    router, _ = seed_router()
    slow_after_each_start(router, monkeypatch)
    with recording(router) as rec:
        await router.invoke(PlanRequest(query="band gap of Si", arguments={"formula": "Si"}))
    (route,) = rec.named("mp_api.search")
    (slow,) = [e for e in route.events if e.name == "route.slow"]
    assert slow.attributes is not None and slow.attributes["waited_seconds"] == 2.5
    run = rec.one("execute_tool schemarouter")
    assert all(e.name != "route.slow" for e in run.events)
