"""A coroutine bounded in time, with no timer for one that answers without waiting.

:func:`bounded` starts the coroutine at once, in the caller's task: when it returns before
its first suspension (an in-process function that computes its answer), no cancel scope and
no timer are made for it (it cannot be cancelled before it waits anyway). Otherwise it goes
on inside a cancel scope whose deadline counts from the call, exactly as if it had been
awaited there from the start: time spent blocking before its first wait counts against
the bound (cancellation is thrown into it at the point where it waits).
"""

from __future__ import annotations

import types
from collections.abc import Coroutine, Generator
from typing import Any

import anyio

__all__ = ["bounded"]


async def bounded(coro: Coroutine[Any, Any, Any], seconds: float | None) -> tuple[Any, bool]:
    """``(result, False)`` of *coro*, or ``(None, True)`` when it ran longer than *seconds*
    (None: no bound); its errors propagate."""
    deadline = anyio.current_time() + seconds if seconds is not None else float("inf")
    try:
        waiting = coro.send(None)
    except StopIteration as done:  # answered without waiting: nothing to bound
        return done.value, False
    with anyio.CancelScope(deadline=deadline):
        return await _resumed(coro, waiting), False
    return None, True


@types.coroutine
def _resumed(coro: Coroutine[Any, Any, Any], waiting: Any) -> Generator[Any, Any, Any]:
    """The rest of *coro*, which is waiting on *waiting*: what the task sends or throws in goes
    on to it."""
    while True:
        try:
            sent = yield waiting
        except BaseException as exc:  # cancellation (or anything thrown in) goes to the coroutine
            try:
                waiting = coro.throw(exc)
            except StopIteration as done:
                return done.value
        else:
            try:
                waiting = coro.send(sent)
            except StopIteration as done:
                return done.value
