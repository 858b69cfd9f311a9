"""The bound's first step runs at once on asyncio: cancel scopes, cancellation and overruns
behave as under ``anyio.move_on_after``, on asyncio and on trio."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import anyio
import anyio.lowlevel
import pytest

from schemarouter_integrations import (
    PlanRequest,
    SchemaRouter,
)
from schemarouter_integrations._execution import eager

pytestmark = pytest.mark.anyio
FIELDS = ["formula", "band_gap"]
BOTH = pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])


@BOTH
async def test_a_coroutine_whose_own_cancel_scope_spans_its_waits_answers() -> None:
    async def own_scopes() -> str:
        with anyio.fail_after(30):
            await anyio.lowlevel.checkpoint()
            with anyio.move_on_after(30):
                await anyio.sleep(0.001)
            await anyio.lowlevel.checkpoint()
        return "answer"

    assert await eager.bounded(own_scopes(), 5.0) == ("answer", False)


@BOTH
async def test_a_coroutine_holding_an_anyio_lock_across_its_wait_answers() -> None:
    lock = anyio.Lock()

    async def locked() -> str:
        async with lock:
            await anyio.sleep(0.001)
        return "answer"

    assert await eager.bounded(locked(), 5.0) == ("answer", False)


@BOTH
async def test_an_overrun_inside_the_coroutines_own_cancel_scope_is_reported_as_an_overrun() -> None:
    cleaned: list[str] = []

    async def waits_in_own_scope() -> str:
        with anyio.fail_after(30):
            try:
                await anyio.sleep(10)
            finally:
                cleaned.append("finally")
        return "late"

    assert await eager.bounded(waits_in_own_scope(), 0.01) == (None, True)
    assert cleaned == ["finally"]


@BOTH
async def test_an_outer_cancel_scope_cancels_a_bounded_coroutine_and_is_not_an_overrun() -> None:
    cleaned: list[str] = []

    async def waits() -> None:
        try:
            await anyio.sleep(10)
        finally:
            cleaned.append("finally")

    with anyio.move_on_after(0.01) as outer:
        await eager.bounded(waits(), 30.0)
        pytest.fail("the outer scope's cancellation must propagate")
    assert outer.cancelled_caught and cleaned == ["finally"]


@BOTH
async def test_an_outer_cancel_scope_cancelled_before_the_first_wait_cancels_that_wait() -> None:
    async def waits() -> str:
        await anyio.sleep(10)
        return "late"

    with anyio.CancelScope() as outer:
        outer.cancel()
        await eager.bounded(waits(), 30.0)
    assert outer.cancelled_caught


async def test_cancelling_the_asyncio_task_propagates_cancellation_through_the_bound() -> None:
    started = asyncio.Event()
    cleaned: list[str] = []

    async def waits() -> None:
        started.set()
        try:
            await asyncio.sleep(10)
        finally:
            cleaned.append("finally")

    task = asyncio.ensure_future(eager.bounded(waits(), 30.0))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert cleaned == ["finally"]


@BOTH
async def test_the_coroutines_own_timeout_error_propagates_and_is_not_an_overrun() -> None:
    async def times_out_itself() -> None:
        await anyio.lowlevel.checkpoint()
        raise TimeoutError("its own")

    with pytest.raises(TimeoutError, match="its own"):
        await eager.bounded(times_out_itself(), 5.0)


async def test_a_coroutine_that_yields_to_the_loop_bare_answers_after_it() -> None:
    async def yields_bare() -> str:
        await asyncio.sleep(0)  # yields None to the task, not a future
        await asyncio.sleep(0)
        return "answer"

    assert await eager.bounded(yields_bare(), 5.0) == ("answer", False)


async def test_a_coroutine_that_handles_a_thrown_cancellation_answers_what_it_returns() -> None:
    """As with ``move_on_after``: a coroutine that swallows the bound's cancellation and
    returns gives its answer."""

    async def stubborn() -> str:
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            return "handled"
        return "late"

    assert await eager.bounded(stubborn(), 0.01) == ("handled", False)


async def test_an_async_callable_that_overruns_after_entering_its_own_scope_falls_back() -> None:
    """Through the router: the overrun is the same unavailable error, and the run falls back."""

    async def slow(formula: str) -> list[dict[str, object]]:
        with anyio.fail_after(30):
            await anyio.sleep(10)
        return [{"formula": formula, "band_gap": 1.0}]

    async def quick(formula: str) -> list[dict[str, object]]:
        return [{"formula": formula, "band_gap": 0.61}]

    router = SchemaRouter()
    router.add_callable(slow, name="slow", provider="p", read_only=True, fields=FIELDS, timeout_seconds=0.01)
    router.add_callable(quick, name="quick", provider="p", read_only=True, fields=FIELDS)
    request = PlanRequest(
        query="band gap",
        arguments={"formula": "Si"},
        preferred_tools=["slow"],
        fallback_scope="same_provider",
    )
    result = await router.invoke(request)
    assert result.tool == "quick"
    failed = [a for a in result.attempts if not a.ok]
    assert [(a.access_path, a.error_type) for a in failed] == [("slow.slow", "InvocationUnavailableError")]
    assert "did not answer within 0.01s" in (failed[0].error or "")


async def test_an_outer_scope_due_with_the_bound_while_the_loop_is_held_cancels_and_is_no_overrun() -> None:
    """Both deadlines pass while another task holds the loop: the outer scope's cancellation
    wins, and nothing is reported as an overrun (anyio skips a task whose wait just ended)."""

    async def hog() -> None:
        time.sleep(0.1)  # noqa: ASYNC251 - runs once the bound waits; holds the loop past both deadlines

    results: list[tuple[Any, bool]] = []
    held = asyncio.create_task(hog())
    with anyio.move_on_after(0.04) as outer:
        results.append(await eager.bounded(asyncio.sleep(10), 0.03))
    await held
    assert outer.cancelled_caught and results == []


async def test_an_answer_ready_before_the_deadline_stands_when_the_loop_resumes_late() -> None:
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[str] = loop.create_future()
    loop.call_later(0.02, ready.set_result, "answer")

    async def waits() -> str:
        return await ready

    async def hog() -> None:
        time.sleep(0.1)  # noqa: ASYNC251 - the answer arrives, then the deadline passes, before the task runs

    held = asyncio.create_task(hog())
    assert await eager.bounded(waits(), 0.05) == ("answer", False)
    await held


async def test_an_overrun_is_reported_when_the_task_had_a_cancellation_already() -> None:
    task = asyncio.current_task()
    assert task is not None
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):  # swallowed without uncancel(): count 1
        await asyncio.sleep(1)
    assert await eager.bounded(asyncio.sleep(10), 0.01) == (None, True)
    assert task.cancelling() == 1
    task.uncancel()


async def test_an_overrun_inside_shielded_cleanup_is_reported_as_an_overrun() -> None:
    results: list[tuple[Any, bool]] = []
    with anyio.move_on_after(0.01):
        try:
            await anyio.sleep(10)
        finally:
            with anyio.CancelScope(shield=True):
                results.append(await eager.bounded(asyncio.sleep(10), 0.01))
    assert results == [(None, True)]


async def test_cleanup_the_coroutine_shields_after_the_overrun_runs_to_its_end() -> None:
    log: list[str] = []

    async def closes_its_connection() -> str:
        try:
            await anyio.sleep(10)
        finally:
            with anyio.CancelScope(shield=True):
                await anyio.sleep(0.02)  # what an HTTP client does to close its connection
                log.append("closed")
        return "late"

    assert await eager.bounded(closes_its_connection(), 0.01) == (None, True)
    assert log == ["closed"]


async def test_an_awaitable_that_is_not_a_coroutine_is_bounded_too() -> None:
    loop = asyncio.get_running_loop()
    answered: asyncio.Future[int] = loop.create_future()
    answered.set_result(1)
    assert await eager.bounded(answered, 1.0) == (1, False)
    pending: asyncio.Future[int] = loop.create_future()
    assert await eager.bounded(pending, 0.01) == (None, True)
