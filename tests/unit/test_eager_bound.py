"""A bounded coroutine: the bound counts from the call, whatever the coroutine does inside."""

from __future__ import annotations

import time

import anyio
import anyio.lowlevel
import pytest

from schemarouter_integrations._execution import eager

pytestmark = pytest.mark.anyio


async def at_once() -> str:
    return "answer"


async def after(seconds: float) -> str:
    await anyio.sleep(seconds)
    return "late answer"


async def test_a_coroutine_that_answers_without_waiting_answers() -> None:
    assert await eager.bounded(at_once(), 5.0) == ("answer", False)


async def test_a_coroutine_that_enters_its_own_cancel_scope_before_waiting_answers() -> None:
    """Started eagerly outside the bound's scope, it would exit its own scope under ours."""

    async def own_scope() -> str:
        with anyio.fail_after(30):
            await anyio.sleep(0.01)
        return "answer"

    assert await eager.bounded(own_scope(), 5.0) == ("answer", False)


async def test_a_coroutine_that_waits_longer_than_its_bound_is_stopped() -> None:
    assert await eager.bounded(after(10.0), 0.01) == (None, True)


async def test_a_coroutine_that_waits_within_its_bound_answers() -> None:
    assert await eager.bounded(after(0.001), 5.0) == ("late answer", False)


async def test_a_coroutine_without_a_bound_may_wait() -> None:
    assert await eager.bounded(after(0.001), None) == ("late answer", False)


async def test_an_error_after_waiting_propagates() -> None:
    async def broken() -> None:
        await anyio.lowlevel.checkpoint()
        raise ValueError("broken")

    with pytest.raises(ValueError, match="broken"):
        await eager.bounded(broken(), 5.0)


async def test_an_error_before_waiting_propagates() -> None:
    async def broken() -> None:
        raise ValueError("broken at once")

    with pytest.raises(ValueError, match="broken at once"):
        await eager.bounded(broken(), 5.0)


async def test_cancelling_the_caller_reaches_the_waiting_coroutine() -> None:
    cleaned: list[str] = []

    async def waits() -> None:
        try:
            await anyio.sleep(10)
        finally:
            cleaned.append("finally")

    with anyio.move_on_after(0.01) as outer:
        await eager.bounded(waits(), None)
    assert outer.cancelled_caught and cleaned == ["finally"]


async def test_time_spent_blocking_before_the_first_wait_counts_against_the_bound() -> None:
    """An async callable that blocks first (a synchronous client call), then waits briefly,
    overruns a bound shorter than its blocking part: the deadline counts from the call."""

    async def blocks_then_waits() -> str:
        time.sleep(0.3)  # noqa: ASYNC251 - the blocking client call this test is about
        await anyio.sleep(0.05)
        return "late"

    assert await eager.bounded(blocks_then_waits(), 0.2) == (None, True)
