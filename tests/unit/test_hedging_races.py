"""Hedged races at their edges: ends that arrive together, late resumes, stray cancellations,
budgets shared with retries, streams closed mid-race, contexts and piled-up outrun calls."""

from __future__ import annotations

import asyncio
import contextvars
from contextlib import aclosing
from typing import Any

import anyio
import pytest

from schemarouter_integrations import (
    EndpointSpec,
    FieldSpec,
    InvocationUnavailableError,
    NonRetryableInvocationError,
    RetryPolicy,
    RouterEvent,
    RunBudget,
    SchemaRouter,
    ToolCall,
    ToolSpec,
)
from schemarouter_integrations._execution.hedge import MAX_OUTRUN
from schemarouter_integrations.errors import InvokerCrashedError
from tests.support.hedging import AFTER, INPUT, Gated, Heard, hedge_request, hedge_router

pytestmark = pytest.mark.anyio


async def _stream(router: SchemaRouter, **kw: Any) -> list[RouterEvent]:
    return [event async for event in router.stream(hedge_request(), **kw)]


async def test_a_call_that_ended_while_a_sink_was_busy_is_not_hedged_late() -> None:
    """The end of the call is queued when the race resumes after after_seconds: it comes first."""
    b = Gated(2.0, gated=False)
    router = hedge_router({"a_api": Gated(1.0, gated=False), "b_api": b})

    async def slow_sink(event: RouterEvent) -> None:
        if event.type == "tool.start":
            await anyio.sleep(AFTER * 3)

    router.subscribe(slow_sink)
    events = await _stream(router)
    assert [e.type for e in events] == ["run.start", "plan.compiled", "tool.start", "tool.end", "run.end"]
    assert b.calls == 0


@pytest.mark.parametrize(
    "a_error", [None, NonRetryableInvocationError("HTTP 404"), InvocationUnavailableError("down")]
)
async def test_the_hedge_that_answered_first_wins_even_when_the_other_call_ends_in_the_same_tick(
    a_error: Exception | None,
) -> None:
    a, b = Gated(1.0, error=a_error), Gated(2.0)
    router = hedge_router({"a_api": a, "b_api": b})

    async def answer_b_then_end_a() -> None:
        await b.started.wait()
        b.gate.set()
        a.gate.set()

    async with anyio.create_task_group() as tg:
        tg.start_soon(answer_b_then_end_a)
        events = await _stream(router)
    assert events[-1].type == "run.end"
    assert events[-1].result.tool == "b_api"  # type: ignore[attr-defined]
    streamed = [(e.type, getattr(e, "tool", None)) for e in events]
    assert streamed.count(("tool.end", "b_api")) == 1
    assert [e.seq for e in events] == sorted(e.seq for e in events)


async def test_a_call_ending_with_neither_records_nor_an_error_ends_the_run_instead_of_hanging() -> None:
    async def leaks_a_cancellation(call: ToolCall) -> Any:
        await anyio.sleep(0.001)
        raise asyncio.CancelledError("an inner task's cancellation")

    router = hedge_router({"a_api": leaks_a_cancellation, "b_api": Gated(2.0)})
    with anyio.fail_after(5), pytest.raises(InvokerCrashedError, match="without an answer"):
        await router.invoke(hedge_request())


def _spec(name: str, retry: RetryPolicy | None = None) -> ToolSpec:
    endpoint = EndpointSpec(
        name="search",
        read_only=True,
        input_schema=INPUT,
        records_path=["data"],
        fields=[FieldSpec(name="band_gap", path=["band_gap"])],
        retry=retry or RetryPolicy(),
    )
    return ToolSpec(name=name, provider="mp", access_mode="openapi", endpoints=[endpoint])


async def test_a_hedge_that_took_the_budget_of_a_retry_still_answers() -> None:
    failures = iter([True, True])

    async def flaky(call: ToolCall) -> Any:
        if next(failures, False):
            raise InvocationUnavailableError("503")
        return {"data": [{"band_gap": 1.0}]}

    b = Gated(2.0)
    router = SchemaRouter()
    router.register(
        _spec("a_api", RetryPolicy(max_attempts=3, backoff_seconds=AFTER * 2, jitter=False)), flaky
    )
    router.register(_spec("b_api"), b)

    async def answer_b_later() -> None:
        await b.started.wait()
        await anyio.sleep(AFTER * 5)
        b.gate.set()

    async with anyio.create_task_group() as tg:
        tg.start_soon(answer_b_later)
        result = await router.invoke(hedge_request(), budget=RunBudget(max_attempts=3))
    assert result.tool == "b_api"


async def test_closing_the_stream_mid_race_cancels_both_calls_at_once_and_marks_nothing() -> None:
    a, b = Gated(error=InvocationUnavailableError("down")), Gated(2.0)
    router = hedge_router({"a_api": a, "b_api": b})
    async with aclosing(router.stream(hedge_request())) as events:
        async for event in events:
            if event.type == "tool.start" and getattr(event, "tool", None) == "b_api":
                break
    a.gate.set()  # the upstream's failure arrives just after the consumer left
    await anyio.sleep(0.02)
    assert (a.cancelled, b.cancelled) == (1, 1)
    assert router.inspect().execution.cooldowns == {}


async def test_late_events_after_run_end_never_make_a_closed_stream_report_a_cancelled_run() -> None:
    a = Gated(error=InvocationUnavailableError("upstream timed out"))
    router = hedge_router({"a_api": a, "b_api": Gated(2.0, gated=False)})
    heard = Heard()
    router.subscribe(heard)
    async with aclosing(router.stream(hedge_request())) as events:
        async for event in events:
            if event.type == "run.end":
                a.gate.set()
                await heard.wait_for("route.unavailable")
                break
    assert heard.types().count("run.error") == 0


def test_calls_of_a_hedged_run_see_the_callers_context_variables_on_trio() -> None:
    pytest.importorskip("trio")
    request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="<unset>")
    seen: list[str] = []

    async def answer(call: ToolCall) -> Any:
        seen.append(request_id.get())
        return {"data": [{"band_gap": 1.0}]}

    async def main() -> None:
        router = hedge_router({"a_api": answer, "b_api": answer})
        request_id.set("req-42")
        await router.invoke(hedge_request())

    anyio.run(main, backend="trio")
    assert seen == ["req-42"]


async def test_a_route_keeps_at_most_max_outrun_calls_finishing_after_their_runs() -> None:
    a = Gated(1.0)  # never answers during the test
    router = hedge_router({"a_api": a, "b_api": Gated(2.0, gated=False)})
    for _ in range(MAX_OUTRUN + 3):
        await router.invoke(hedge_request())
        await anyio.sleep(AFTER * 4.5)  # past the presumption: tokens come back
    assert a.calls == MAX_OUTRUN + 3
    assert len(router._executor.hedger.detached) == MAX_OUTRUN
    assert a.cancelled == 3
    a.gate.set()
    await router.aclose()


async def test_an_outrun_call_retries_beyond_its_finished_runs_budget_and_still_cools_its_route() -> None:
    async def always_503(call: ToolCall) -> Any:
        await anyio.sleep(AFTER * 2)
        raise InvocationUnavailableError("503")

    router = SchemaRouter()
    router.register(
        _spec("a_api", RetryPolicy(max_attempts=3, backoff_seconds=0.0, jitter=False)), always_503
    )
    router.register(_spec("b_api"), Gated(2.0, gated=False))
    heard = Heard()
    router.subscribe(heard)
    result = await router.invoke(hedge_request(), budget=RunBudget(max_attempts=2))
    assert result.tool == "b_api"
    await heard.wait_for("route.unavailable")
    assert "a_api.search" in router.inspect().execution.cooldowns
