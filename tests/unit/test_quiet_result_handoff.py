"""A quiet run hands back its result without building ``run.end`` (``Executor.quietly``), and
the faces read the fallbacks and hedges of its events in one pass over their records
(``events_of``): each scenario gives what the same run with a listener gives."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import (
    CachePolicy,
    EndpointSpec,
    FieldSpec,
    InvocationUnavailableError,
    MemoryAnswerCache,
    PlanRequest,
    SchemaRouter,
    ToolCall,
    ToolSpec,
)
from schemarouter_integrations._execution.context import events_of
from schemarouter_integrations._execution.executor import RUN_EVENTS_ATTRIBUTE
from schemarouter_integrations.events import (
    RouterEvent,
    ToolFallbackEvent,
    ToolHedgeEvent,
    ToolResult,
    ToolStartEvent,
)
from tests.support.fakes import FakeClock

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


def chain_router(last: Any = answer) -> SchemaRouter:
    router = SchemaRouter()
    router.register(spec("a_api", "mp"), down)
    router.register(spec("b_api", "mp"), down)
    router.register(spec("c_api", "oqmd"), last)
    return router


def comparable(events: list[RouterEvent]) -> list[tuple[type[RouterEvent], dict[str, Any]]]:
    return [(type(e), e.model_dump(exclude=VARYING & set(type(e).model_fields))) for e in events]


def attempts(result: ToolResult) -> list[dict[str, Any]]:
    return [a.model_dump(exclude={"exception"}) for a in result.attempts]


async def quiet_and_listened(make: Any, request: Any) -> tuple[Any, Any, list[RouterEvent]]:
    """The same run twice, quiet then listened (with what the listener heard)."""
    quiet = await make().invoke(request)
    heard: list[RouterEvent] = []
    loud_router = make()
    loud_router.subscribe(heard.append)
    return quiet, await loud_router.invoke(request), heard


async def test_a_quiet_result_has_the_fields_and_attempts_of_a_listened_one() -> None:
    quiet, loud, _ = await quiet_and_listened(chain_router, CHAIN)
    assert type(quiet) is type(loud) is ToolResult
    assert quiet.model_dump(exclude={"events"}) == loud.model_dump(exclude={"events"})
    assert attempts(quiet) == attempts(loud)
    assert [(a.access_path, a.attempt, a.ok) for a in quiet.attempts] == [
        ("a_api.search", 1, False),
        ("b_api.search", 1, False),
        ("c_api.search", 1, True),
    ]


async def test_a_quiet_results_events_read_later_are_those_a_listener_heard_numbered_in_one_run() -> None:
    quiet, loud, heard = await quiet_and_listened(chain_router, CHAIN)
    assert comparable(quiet.events) == comparable(loud.events) == comparable(heard[:-1])
    assert [e.seq for e in quiet.events] == [e.seq for e in heard[:-1]] == list(range(1, len(heard)))
    assert len({e.run_id for e in quiet.events}) == 1
    assert heard[-1].type == "run.end"


async def test_reading_fallbacks_and_hedges_of_a_quiet_result_leaves_its_events_complete() -> None:
    quiet = await chain_router().invoke(CHAIN)
    assert len(events_of(quiet, ToolFallbackEvent)) == 2
    assert events_of(quiet, ToolHedgeEvent) == []
    assert "events" not in quiet.__dict__
    assert [e.type for e in quiet.events] == [
        "run.start",
        "plan.compiled",
        "tool.start",
        "tool.error",
        "route.unavailable",
        "tool.fallback",
        "tool.start",
        "tool.error",
        "route.unavailable",
        "tool.fallback",
        "tool.start",
        "tool.end",
    ]


async def test_events_of_a_quiet_result_read_twice_gives_equal_new_events() -> None:
    quiet = await chain_router().invoke(CHAIN)
    first, second = events_of(quiet, ToolStartEvent), events_of(quiet, ToolStartEvent)
    assert comparable(list(first)) == comparable(list(second))
    assert [e.access_path for e in first] == ["a_api.search", "b_api.search", "c_api.search"]
    assert all(a is not b for a, b in zip(first, second, strict=True))
    assert comparable(list(first)) == comparable([e for e in quiet.events if e.type == "tool.start"])


async def test_a_failed_quiet_run_raises_with_the_events_a_listener_heard() -> None:
    async def crashes(call: ToolCall) -> Any:
        raise KeyError("bug")

    async def failed(router: SchemaRouter) -> tuple[BaseException, tuple[RouterEvent, ...]]:
        with pytest.raises(Exception) as raised:
            await router.invoke(CHAIN)
        return raised.value, getattr(raised.value, RUN_EVENTS_ATTRIBUTE)

    quiet_error, quiet_events = await failed(chain_router(crashes))
    heard: list[RouterEvent] = []
    loud_router = chain_router(crashes)
    loud_router.subscribe(heard.append)
    loud_error, loud_events = await failed(loud_router)
    assert type(quiet_error) is type(loud_error) and str(quiet_error) == str(loud_error)
    assert comparable(list(quiet_events)) == comparable(list(loud_events)) == comparable(heard)
    assert [e.seq for e in quiet_events] == list(range(1, len(quiet_events) + 1))
    assert len({e.run_id for e in quiet_events}) == 1
    assert quiet_events[-1].type == "run.error" and quiet_events[-1].exception is quiet_error


async def test_a_stale_answer_served_to_a_quiet_run_is_the_one_a_listened_run_gets() -> None:
    policy = CachePolicy(ttl_seconds=30, stale_if_error_seconds=600)
    request = PlanRequest(query="band gap", arguments={"formula": "Si"}, cache=policy)

    async def stale_after_an_answer(listen: bool) -> ToolResult:
        state = {"down": False}

        async def search(formula: str) -> list[dict[str, Any]]:
            if state["down"]:
                raise InvocationUnavailableError("down")
            return [{"formula": formula, "band_gap": 1.1}]

        clock = FakeClock()
        router = SchemaRouter(clock=clock, answer_cache=MemoryAnswerCache())
        fields = ["band_gap", "formula"]
        router.add_callable(search, name="lab", provider="lab", read_only=True, fields=fields)
        if listen:
            router.subscribe(lambda event: None)
        await router.invoke(request)
        clock.advance(60)
        state["down"] = True
        return await router.invoke(request)

    quiet, loud = await stale_after_an_answer(False), await stale_after_an_answer(True)
    assert quiet.stale is loud.stale is True
    assert quiet.model_dump(exclude={"events"}) == loud.model_dump(exclude={"events"})
    assert comparable(quiet.events) == comparable(loud.events)
    assert [e.type for e in quiet.events][-1] == "cache.stale"
