"""Sync entry points that work with and without a running event loop."""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import anyio

T = TypeVar("T")


def run_sync(make: Callable[[], Awaitable[T]]) -> T:
    """Run the awaitable that *make* returns to completion from sync code.

    Without a running loop it runs on a fresh anyio loop. Inside a running loop (Jupyter, an
    async framework calling sync code) it runs on a fresh loop in a worker thread, because
    blocking the running loop or nesting ``asyncio.run`` would deadlock or fail.
    """

    async def call() -> T:
        return await make()

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return anyio.run(call)
    context = contextvars.copy_context()
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="schemarouter-sync") as pool:

        def in_thread() -> T:
            return anyio.run(call)

        return pool.submit(context.run, in_thread).result()
