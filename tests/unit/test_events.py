"""Typed events: envelope, JSON, live streaming and subscribed sinks."""

from __future__ import annotations

import itertools
import json
import logging
from contextlib import aclosing
from typing import Any

import anyio
import pytest

from schemarouter_integrations import RetryPolicy, RouterEvent, ToolResult
from schemarouter_integrations.events import EVENT_TYPES, RunEndEvent, RunErrorEvent, ToolFallbackEvent
from tests.support.execution import CHAIN, DOWN, GatedInvoker, collect, fake_router, types

pytestmark = pytest.mark.anyio

API_EVENT_TYPES = {
    "run.start",
    "plan.compiled",
    "tool.start",
    "tool.retry",
    "tool.error",
    "tool.fallback",
    "tool.end",
    "route.unavailable",
    "route.available",
    "health.probe",
    "run.end",
    "run.error",
}


def test_every_event_type_of_the_api_has_a_typed_model() -> None:
    assert set(EVENT_TYPES) >= API_EVENT_TYPES
    assert all(issubclass(cls, RouterEvent) for cls in EVENT_TYPES.values())


async def test_events_share_the_run_id_and_are_numbered_in_order() -> None:
    router, _, _ = fake_router(down=DOWN)

    events = await collect(router, CHAIN)

    assert len({e.run_id for e in events}) == 1 and events[0].run_id
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert all(a.timestamp <= b.timestamp for a, b in itertools.pairwise(events))


async def test_two_runs_have_different_run_ids() -> None:
    router, _, _ = fake_router()

    first, second = await collect(router, CHAIN), await collect(router, CHAIN)

    assert first[0].run_id != second[0].run_id


async def test_every_event_of_a_run_serialises_to_json_with_its_payload() -> None:
    router, _, _ = fake_router(down=DOWN)

    events = await collect(router, CHAIN)

    dumped = [json.loads(e.model_dump_json()) for e in events]
    assert [d["type"] for d in dumped] == types(events)
    end = dumped[-1]
    assert end["result"]["tool"] == "oqmd_api"
    assert end["result"]["records"] == [{"band_gap": 0.62}]
    nested_fallback = end["result"]["events"][5]
    assert nested_fallback["type"] == "tool.fallback"
    assert nested_fallback["to_tool"] == "mp_optimade"
    assert end["result"]["plan"]["primary"]["tool"] == "mp_api"


async def test_run_error_serialises_without_the_exception_object() -> None:
    router, _, _ = fake_router(down=(*DOWN, "oqmd_api"))

    events = await collect(router, CHAIN)

    error = events[-1]
    assert isinstance(error, RunErrorEvent) and error.exception is not None
    dumped = json.loads(error.model_dump_json())
    assert dumped["error_type"] == "AllRoutesUnavailableError"
    assert "exception" not in dumped
    assert dumped["route"][-1] == "oqmd_api.search"
    assert len(dumped["attempts"]) == 4


async def test_run_end_result_is_the_tool_result() -> None:
    router, _, _ = fake_router()

    events = await collect(router, CHAIN)

    end = events[-1]
    assert isinstance(end, RunEndEvent) and isinstance(end.result, ToolResult)
    assert end.result.events == events[:-1]


async def test_stream_yields_events_while_the_run_is_still_going() -> None:
    router, _, _ = fake_router()
    gated = GatedInvoker("mp_api")
    router.bind("mp_api", gated)
    seen: list[str] = []

    with anyio.fail_after(5):  # a stream replayed after the run would never open the gate
        async for event in router.stream(CHAIN):
            seen.append(event.type)
            if event.type == "tool.start":
                assert not gated.finished
                gated.gate.set()

    assert seen == ["run.start", "plan.compiled", "tool.start", "tool.end", "run.end"]
    assert gated.finished


async def test_stream_of_a_failed_run_ends_with_run_error() -> None:
    router, _, _ = fake_router(down=(*DOWN, "oqmd_api"))

    events = await collect(router, CHAIN)

    assert events[-1].type == "run.error"
    assert sum(e.type in {"run.end", "run.error"} for e in events) == 1


async def test_sync_and_async_sinks_see_every_event_in_order() -> None:
    router, _, _ = fake_router(down=DOWN)
    sync_seen: list[RouterEvent] = []
    async_seen: list[RouterEvent] = []

    async def async_sink(event: RouterEvent) -> None:
        await anyio.lowlevel.checkpoint()
        async_seen.append(event)

    router.subscribe(sync_seen.append)
    router.subscribe(async_sink)
    events = await collect(router, CHAIN)

    assert sync_seen == events
    assert async_seen == events


async def test_a_failing_sink_is_logged_and_never_breaks_the_run(caplog: pytest.LogCaptureFixture) -> None:
    router, _, _ = fake_router(down=DOWN)
    seen: list[str] = []

    def broken(event: RouterEvent) -> None:
        raise RuntimeError("sink is broken")

    async def broken_async(event: RouterEvent) -> None:
        raise RuntimeError("async sink is broken")

    router.subscribe(broken)
    router.subscribe(broken_async)
    router.subscribe(lambda e: seen.append(e.type))
    with caplog.at_level(logging.ERROR, logger="schemarouter_integrations.events"):
        result = await router.invoke(CHAIN)

    assert result.tool == "oqmd_api"
    assert seen[-1] == "run.end"
    assert sum("sink is broken" in r.exc_text for r in caplog.records if r.exc_text) == 2 * len(seen)


async def test_unsubscribed_sink_sees_no_more_events() -> None:
    router, _, _ = fake_router()
    seen: list[RouterEvent] = []
    unsubscribe = router.subscribe(seen.append)
    await router.invoke(CHAIN)
    count = len(seen)

    unsubscribe()
    await router.invoke(CHAIN)

    assert len(seen) == count


async def test_async_sink_gets_events_published_from_sync_code_on_the_running_loop() -> None:
    router, _, _ = fake_router()
    seen: list[str] = []

    async def sink(event: RouterEvent) -> None:
        seen.append(event.type)

    router.subscribe(sink)
    router.mark_access_unavailable("mp_api", "search", seconds=5)
    await router.events.drain()

    assert seen == ["route.unavailable"]


def test_async_sink_gets_events_published_from_sync_code_without_a_loop() -> None:
    router, _, _ = fake_router()
    seen: list[str] = []

    async def sink(event: RouterEvent) -> None:
        seen.append(event.type)

    router.subscribe(sink)
    router.mark_access_unavailable("mp_api", "search", seconds=5)
    router.mark_access_available("mp_api", "search")

    assert seen == ["route.unavailable", "route.available"]


async def test_fallback_event_payload_is_typed() -> None:
    router, _, _ = fake_router(down=("mp_api",))

    events = await collect(router, CHAIN)

    fallback = next(e for e in events if e.type == "tool.fallback")
    assert isinstance(fallback, ToolFallbackEvent)
    payload: dict[str, Any] = fallback.payload()
    assert set(payload) == {
        "from_tool",
        "from_endpoint",
        "to_tool",
        "to_endpoint",
        "from_provider",
        "to_provider",
        "from_access_mode",
        "to_access_mode",
        "scope",
        "same_provider",
        "reason",
    }


async def test_every_emitted_event_passes_validation_of_its_own_type() -> None:
    router, _, _ = fake_router(down=DOWN, retry=RetryPolicy(max_attempts=2))
    router.unbind("mp_python")
    plan = router.plan(CHAIN)
    router.mark_access_unavailable("oqmd_api", "search")  # the run's success reopens it
    failing_router, _, _ = fake_router(down=(*DOWN, "oqmd_api"))

    events = await collect(router, plan) + await collect(failing_router, CHAIN)

    emitted = set(types(events))
    assert emitted >= {"tool.retry", "route.pruned", "tool.fallback", "route.available", "run.error"}
    for event in events:
        data = event.model_dump(exclude={"result"})
        assert type(event).model_validate(data).model_dump(exclude={"result"}) == data


async def test_closing_the_stream_early_stops_the_run_before_the_next_call() -> None:
    router, invokers, _ = fake_router()

    async with aclosing(router.stream(CHAIN)) as stream:
        async for event in stream:
            if event.type == "tool.start":
                break

    assert invokers["mp_api"].calls == []
    assert router.availability_store.active() == {}


@pytest.mark.anyio
async def test_tool_result_round_trips_through_json_with_typed_events() -> None:
    from schemarouter_integrations import PlanRequest, ToolResult
    from schemarouter_integrations.events import ToolFallbackEvent
    from tests.support.seed import seed_router

    router, _ = seed_router(down=("mp_api",))
    request = PlanRequest(
        query="Si band gap",
        arguments={"formula": "Si"},
        preferred_tools=["mp_api"],
        fallback_scope="cross_provider",
    )
    result = await router.invoke(request)
    back = ToolResult.model_validate_json(result.model_dump_json())
    assert back.model_dump() == result.model_dump()
    assert any(isinstance(event, ToolFallbackEvent) for event in back.events)
