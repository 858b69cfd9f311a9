"""A coroutine bounded in time.

The coroutine is awaited inside ``anyio.move_on_after(seconds)`` from its start. It is not
started eagerly outside the scope (to spare the timer when it answers without waiting):
a coroutine that enters a cancel scope of its own before its first wait (``fail_after``,
an anyio lock, an HTTP client call) would then exit that scope while ours is the current
one, which anyio refuses; and the time it blocks before its first wait must count.
"""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any

import anyio

__all__ = ["bounded"]


async def bounded(coro: Coroutine[Any, Any, Any], seconds: float | None) -> tuple[Any, bool]:
    """``(result, False)`` of *coro*, or ``(None, True)`` when it ran longer than *seconds*
    (None: no bound); its errors propagate."""
    if seconds is None:
        return await coro, False
    with anyio.move_on_after(seconds):
        return await coro, False
    return None, True
