"""Sync entry points that work with and without a running event loop."""

from __future__ import annotations

import contextvars
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import anyio

T = TypeVar("T")


def loop_running() -> bool:
    """True when this thread is inside a running event loop (asyncio, or trio via sniffio)."""
    import asyncio

    try:
        asyncio.get_running_loop()
        return True
    except RuntimeError:
        pass
    try:
        import sniffio
    except ImportError:  # pragma: no cover - sniffio comes with most async stacks
        return False
    try:
        sniffio.current_async_library()
    except sniffio.AsyncLibraryNotFoundError:
        return False
    return True


def run_sync(make: Callable[[], Awaitable[T]]) -> T:
    """Run the awaitable that *make* returns to completion from sync code.

    Without a running loop it runs on a fresh anyio loop in this thread. Inside a running
    loop (Jupyter, an async framework calling sync code) it runs on a fresh loop in a
    worker thread and blocks until done: nesting ``asyncio.run`` in a running loop fails.
    The awaitable is created in the thread that runs it, with the caller's context.
    """

    async def call() -> T:
        return await make()

    if not loop_running():
        return anyio.run(call)
    context = contextvars.copy_context()

    def in_thread() -> T:
        return context.run(_run_fresh, call)

    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="schemarouter-sync") as pool:
        return pool.submit(in_thread).result()


def _run_fresh(call: Callable[[], Awaitable[T]]) -> T:
    """``anyio.run`` in a worker thread whose copied context still names the caller's loop.

    sniffio's context variable travels with the copied context and would make anyio believe
    a loop is already running here; this thread runs none, so clear it first.
    """
    try:
        import sniffio
    except ImportError:  # pragma: no cover - sniffio comes with most async stacks
        pass
    else:
        sniffio.current_async_library_cvar.set(None)
    return anyio.run(call)
