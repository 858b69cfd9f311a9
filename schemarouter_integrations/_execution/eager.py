"""A coroutine bounded in time, with no timer when it answers without waiting.

The deadline is taken when the call starts, so the time the coroutine blocks before its
first wait counts. On asyncio, the coroutine's first step runs at once (``send(None)``) and
under no cancel scope of ours: a coroutine that enters a cancel scope of its own before its
first wait (``fail_after``, an anyio lock, an HTTP client call) must exit it while that
scope is still the current one, which anyio checks. A coroutine that answers in that step
needs no timer at all; one that suspends goes on under a :class:`_Deadline` from the same
deadline, which cancels the task natively once (never while the result it waited for is
already there: it tries again on the next loop iteration) and leaves anyio's scope stack
alone, so cleanup the coroutine shields after that cancellation runs to its end. A
coroutine that swallows that one cancellation and goes on waiting is not cancelled again.
Other event loops (trio), and awaitables that are not coroutines, run inside
``anyio.move_on_after`` from their start.
"""

from __future__ import annotations

import asyncio
import types
from collections.abc import Awaitable, Coroutine, Generator
from typing import Any

import anyio
import anyio.lowlevel

__all__ = ["bounded"]


async def bounded(coro: Coroutine[Any, Any, Any] | Awaitable[Any], seconds: float | None) -> tuple[Any, bool]:
    """``(result, False)`` of *coro*, or ``(None, True)`` when it ran longer than *seconds*
    (None: no bound); its errors propagate."""
    if seconds is None:
        return await coro, False
    task = _asyncio_task() if type(coro) is types.CoroutineType else None
    if task is None:
        with anyio.move_on_after(seconds):
            return await coro, False
        return None, True
    assert isinstance(coro, types.CoroutineType)
    deadline = task.get_loop().time() + seconds
    pending = task.cancelling()  # cancellations the task had already: not ours to judge
    try:
        first = coro.send(None)
    except StopIteration as answered:
        return answered.value, False
    timer = _Deadline(task, deadline)
    try:
        value = await _Resumed(coro, first)
    except asyncio.CancelledError:
        if not timer.stop() or task.cancelling() > pending:
            raise  # not ours alone: a cancellation from outside goes on
        # ours; an anyio scope around the call whose cancellation came while ours was being
        # delivered (anyio skips a task whose wait is already over) takes over here
        await anyio.lowlevel.checkpoint_if_cancelled()
        return None, True
    except BaseException:
        timer.stop()
        raise
    timer.stop()
    return value, False


class _Deadline:
    """Cancels *task* once from *deadline* on, unless :meth:`stop` came first; skips a loop
    iteration in which the future the task waited for is done already (its result stands)."""

    __slots__ = ("handle", "running", "sent", "task")

    def __init__(self, task: asyncio.Task[Any], deadline: float) -> None:
        self.task = task
        self.sent = 0
        self.running = True
        self.handle: asyncio.Handle = task.get_loop().call_at(deadline, self._fire)

    def _fire(self) -> None:
        if not self.running:
            return
        waiter = getattr(self.task, "_fut_waiter", None)
        if isinstance(waiter, asyncio.Future) and waiter.done():  # it resumes with that result
            self.handle = self.task.get_loop().call_soon(self._fire)
        elif self.task.cancel():
            self.sent += 1

    def stop(self) -> bool:
        """Stop cancelling; True when a cancellation of ours was sent (each one taken back)."""
        self.running = False
        self.handle.cancel()
        for _ in range(self.sent):
            self.task.uncancel()
        return self.sent > 0


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
