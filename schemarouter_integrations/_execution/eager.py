"""A coroutine bounded in time, with no timer when it answers without waiting.

The deadline is taken when the call starts, so the time the coroutine blocks before its
first wait counts. On asyncio, the coroutine's first step runs at once (``send(None)``) and
under no cancel scope of ours: a coroutine that enters a cancel scope of its own before its
first wait (``fail_after``, an anyio lock, an HTTP client call) must exit it while that
scope is still the current one, which anyio checks. A coroutine that answers in that step
needs no timer at all; one that suspends goes on under ``asyncio.timeout_at`` from the same
deadline, which cancels the task natively and leaves anyio's scope stack alone (the first
thing it waits for is handed to the task as it was yielded). Other event loops (trio) run
the coroutine inside ``anyio.move_on_after`` from its start.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Generator
from typing import Any

import anyio

__all__ = ["bounded"]


async def bounded(coro: Coroutine[Any, Any, Any], seconds: float | None) -> tuple[Any, bool]:
    """``(result, False)`` of *coro*, or ``(None, True)`` when it ran longer than *seconds*
    (None: no bound); its errors propagate."""
    if seconds is None:
        return await coro, False
    task = _asyncio_task()
    if task is None:
        with anyio.move_on_after(seconds):
            return await coro, False
        return None, True
    deadline = task.get_loop().time() + seconds
    try:
        first = coro.send(None)
    except StopIteration as answered:
        return answered.value, False
    timer = asyncio.timeout_at(deadline)
    try:
        async with timer:
            return await _Resumed(coro, first), False
    except TimeoutError as exc:
        if timer.expired() and isinstance(exc.__cause__, asyncio.CancelledError):
            return None, True  # the timer's own cancellation, turned into TimeoutError by it
        raise


def _asyncio_task() -> asyncio.Task[Any] | None:
    """The asyncio task running the caller, or None under another event loop (trio)."""
    try:
        return asyncio.current_task()
    except RuntimeError:  # no asyncio loop runs in this thread
        return None


class _Resumed:
    """Awaits the rest of a coroutine whose first step ran already and yielded *first*."""

    __slots__ = ("coro", "first")

    def __init__(self, coro: Coroutine[Any, Any, Any], first: Any) -> None:
        self.coro = coro
        self.first = first

    def __await__(self) -> Generator[Any, Any, Any]:
        coro, pending = self.coro, self.first
        self.first = None
        while True:
            try:
                sent = yield pending
            except GeneratorExit:
                coro.close()
                raise
            except BaseException as exc:  # thrown in by the task: cancellation, mostly
                try:
                    pending = coro.throw(exc)
                except StopIteration as answered:
                    return answered.value
            else:
                try:
                    pending = coro.send(sent)
                except StopIteration as answered:
                    return answered.value
