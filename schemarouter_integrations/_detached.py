"""Tasks that outlive the task that starts them (asyncio tasks, trio system tasks).

Structured concurrency is the rule everywhere else; a detached task is for work whose
result still matters after its caller moved on: the slower call of a hedged pair finishing
within its own timeout, or an MCP session's owner. Each task runs in its own cancel scope,
so :meth:`Detached.cancel` works from any task of the same loop.
"""

from __future__ import annotations

import contextvars
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import anyio
import sniffio

if TYPE_CHECKING:
    import asyncio

_running: set[asyncio.Task[None]] = set()  # strong references until each task is done


class Detached:
    """Handle of a detached task: ``cancel()`` it."""

    def __init__(self) -> None:
        self._scope = anyio.CancelScope()

    def cancel(self) -> None:
        """Cancel the task (a no-op once it ended)."""
        self._scope.cancel()

    async def _run(self, work: Callable[[], Awaitable[None]]) -> None:
        with self._scope:
            await work()


def loop_key() -> object:
    """The running event loop (asyncio) or trio token: what tells loops of threads apart."""
    if sniffio.current_async_library() == "trio":
        import trio

        return trio.lowlevel.current_trio_token()
    import asyncio

    return asyncio.get_running_loop()


def spawn(work: Callable[[], Awaitable[None]]) -> Detached:
    """Start ``await work()`` as a task of the running loop that outlives the calling task.

    Exceptions of *work* are its own to handle: an escaping one ends the task (asyncio logs
    it as never retrieved, trio treats a system task's error as fatal), so *work* catches them.
    """
    handle = Detached()
    if sniffio.current_async_library() == "trio":
        import trio

        # a system task runs in trio's own context: give it the caller's, as asyncio does
        trio.lowlevel.spawn_system_task(handle._run, work, context=contextvars.copy_context())
        return handle
    import asyncio

    task = asyncio.get_running_loop().create_task(handle._run(work))
    _running.add(task)
    task.add_done_callback(_running.discard)
    return handle
