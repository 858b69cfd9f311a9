"""A run nobody listens to builds its events on first read: the same result, events included."""

from __future__ import annotations

import copy
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
from schemarouter_integrations._execution.context import events_of
from schemarouter_integrations._settling import LAZY
from schemarouter_integrations.events import RouterEvent, RunEndEvent, ToolFallbackEvent, ToolResult

pytestmark = pytest.mark.anyio
INPUT = {"type": "object", "properties": {"formula": {"type": "string"}}, "additionalProperties": False}
CHAIN = PlanRequest(
    query="Si band gap",
    arguments={"formula": "Si"},
    preferred_tools=["a_api"],
    fallback_scope="cross_provider",
)
VARYING = {"run_id", "timestamp", "duration_ms", "cooldown_seconds"}


def spec(name: str, provider: str) -> ToolSpec:
    fields = [FieldSpec(name="band_gap"), FieldSpec(name="formula")]
    endpoint = EndpointSpec(
        name="search", read_only=True, input_schema=INPUT, records_path=["data"], fields=fields
    )
    return ToolSpec(name=name, provider=provider, endpoints=[endpoint])


async def down(call: ToolCall) -> Any:
    raise InvocationUnavailableError(f"{call.tool} is down")


async def answer(call: ToolCall) -> Any:
    return {"data": [{"band_gap": 0.6, "formula": "Si"}]}


def chain_router() -> SchemaRouter:
    router = SchemaRouter()
    router.register(spec("a_api", "mp"), down)
    router.register(spec("b_api", "mp"), down)
    router.register(spec("c_api", "oqmd"), answer)
    return router


def comparable(events: list[RouterEvent]) -> list[tuple[type[RouterEvent], dict[str, Any]]]:
    """Each event's class and fields, without what differs between any two runs."""
    return [(type(e), e.model_dump(exclude=VARYING & set(type(e).model_fields))) for e in events]


async def test_a_quiet_run_leaves_its_events_unbuilt_until_they_are_read() -> None:
    result = await chain_router().invoke(CHAIN)
    assert "events" not in result.__dict__
    assert [e.type for e in result.events][:3] == ["run.start", "plan.compiled", "tool.start"]
    assert "events" in result.__dict__


async def test_a_quiet_run_reads_like_a_listened_run_events_included() -> None:
    quiet = await chain_router().invoke(CHAIN)
    heard: list[RouterEvent] = []
    listened_router = chain_router()
    listened_router.subscribe(heard.append)
    listened = await listened_router.invoke(CHAIN)
    assert "events" in listened.__dict__  # a sink listens: events were built during the run
    assert comparable(quiet.events) == comparable(listened.events)
    assert comparable(listened.events) == comparable(heard[:-1])  # every event but run.end
    assert quiet.model_dump(exclude={"events"}) == listened.model_dump(exclude={"events"})
    assert quiet.fallbacks == listened.fallbacks == 2


async def test_a_quiet_run_hands_back_its_result_without_building_run_end_or_events() -> None:
    router = chain_router()
    request, source = CHAIN, router.plan_executable(CHAIN)
    result, events = await router._executor.quietly(request, source, None)
    assert isinstance(result, ToolResult) and events == []
    assert "events" not in result.__dict__
    assert result.fallbacks == 2


async def test_one_run_numbers_its_quiet_events_in_order() -> None:
    result = await chain_router().invoke(CHAIN)
    assert [e.seq for e in result.events] == list(range(1, len(result.events) + 1))
    assert len({e.run_id for e in result.events}) == 1


async def test_serialising_a_quiet_result_builds_its_events_first() -> None:
    result = await chain_router().invoke(CHAIN)
    dumped = result.model_dump(mode="json")
    assert [e["type"] for e in dumped["events"]] == [e.type for e in result.events]
    again = ToolResult.model_validate_json(result.model_dump_json())
    assert comparable(again.events) == comparable(result.events)


async def test_a_quiet_result_nested_in_a_model_serialises_its_events() -> None:
    result = await chain_router().invoke(CHAIN)
    end = RunEndEvent(tool=result.tool, endpoint=result.endpoint, fallbacks=2, result=result)
    assert len(end.model_dump()["result"]["events"]) == len(result.events)


async def test_a_quiet_result_copies_with_its_events() -> None:
    first = await chain_router().invoke(CHAIN)
    second = await chain_router().invoke(CHAIN)
    for clone in (copy.copy(first), copy.deepcopy(second)):
        assert [e.type for e in clone.events][-1] == "tool.end"


async def test_a_quiet_result_equals_the_same_result_built_at_once() -> None:
    fresh = await chain_router().invoke(CHAIN)
    name, build = fresh.__pydantic_private__[LAZY]  # type: ignore[index]
    built_at_once = ToolResult.model_construct(**{**fresh.__dict__, name: build()})
    assert "events" not in fresh.__dict__
    assert fresh == built_at_once


async def test_a_quiet_result_shows_its_events_in_its_repr() -> None:
    result = await chain_router().invoke(CHAIN)
    assert repr(result).count("RunStartEvent") == 1


async def test_a_failed_quiet_run_raises_the_runs_error() -> None:
    router = SchemaRouter()
    router.register(spec("a_api", "mp"), down)
    with pytest.raises(InvocationUnavailableError):
        await router.invoke(PlanRequest(query="Si band gap", arguments={"formula": "Si"}))


async def test_an_invocation_scope_makes_the_run_build_its_events() -> None:
    router = chain_router()
    router.add_invocation_scope(lambda start: None)
    result = await router.invoke(CHAIN)
    assert "events" in result.__dict__


async def test_events_of_a_quiet_result_builds_only_the_kind_asked_for() -> None:
    result = await chain_router().invoke(CHAIN)
    fallbacks = events_of(result, ToolFallbackEvent)
    assert "events" not in result.__dict__
    assert comparable(list(fallbacks)) == comparable([e for e in result.events if e.type == "tool.fallback"])
    assert len(fallbacks) == 2


async def test_events_of_a_listened_result_reads_its_events() -> None:
    router = chain_router()
    router.subscribe(lambda event: None)
    result = await router.invoke(CHAIN)
    assert events_of(result, ToolFallbackEvent) == [e for e in result.events if e.type == "tool.fallback"]
