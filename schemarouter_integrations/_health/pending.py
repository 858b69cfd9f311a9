"""Routes that could not be registered at start, retried with backoff while the router is entered.

``SchemaRouter.from_config(strict=False)`` (the default) registers every route it can; a
route whose document cannot be read (its server down, a timeout, a 401, not a document)
is added here with its reason and an *attempt* (a coroutine function that registers it,
probes included). While the router is entered (``async with router:``) each pending route
is retried after a delay that grows from :data:`FIRST_DELAY_SECONDS` to
:data:`MAX_DELAY_SECONDS` (doubling, with jitter: each delay is drawn between half and
all of its step), until it registers; it then leaves :meth:`PendingRoutes.snapshot`.
The sleep and the random source are the router's, so tests drive the retries.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import anyio
from anyio.abc import TaskGroup, TaskStatus

from ..errors import RegistrationError

if TYPE_CHECKING:
    from .._execution import Sleep

__all__ = ["FIRST_DELAY_SECONDS", "MAX_DELAY_SECONDS", "PendingRoutes", "retry_delay"]

FIRST_DELAY_SECONDS = 1.0
MAX_DELAY_SECONDS = 60.0

Attempt = Callable[[], Awaitable[object]]
Describe = Callable[[BaseException], str]
"""The reason shown for a failed attempt (the router masks secrets there)."""

logger = logging.getLogger("schemarouter_integrations.registration")


def retry_delay(retry: int, rng: random.Random) -> float:
    """The wait before retry number *retry* (0, 1, ...): 1, 2, 4 ... 60 s, each jittered to
    between half and all of that step."""
    step = min(FIRST_DELAY_SECONDS * 2.0 ** min(retry, 16), MAX_DELAY_SECONDS)
    return step * (0.5 + 0.5 * rng.random())


@dataclass
class _Pending:
    reason: str
    attempt: Attempt
    describe: Describe
    retries: int = 0


class PendingRoutes:
    """The pending routes of one router and the task that retries them."""

    def __init__(self, *, sleep: Sleep, rng: random.Random | None = None) -> None:
        self._sleep = sleep
        self._rng = rng or random.Random()
        self._routes: dict[str, _Pending] = {}
        self._group: TaskGroup | None = None
        self._changed: anyio.Event | None = None  # made on first wait, in the waiter's loop

    def add(self, name: str, reason: str, attempt: Attempt, describe: Describe = str) -> None:
        """Keep route *name* pending with *reason*; *attempt* registers it (raising if it cannot)."""
        self._routes[name] = _Pending(reason, attempt, describe)
        if self._group is not None:
            self._group.start_soon(self._retry, name, name=f"schemarouter-pending-{name}")

    def snapshot(self) -> dict[str, str]:
        """``{route name: reason}`` of every route not registered yet."""
        return {name: pending.reason for name, pending in sorted(self._routes.items())}

    def __bool__(self) -> bool:
        return bool(self._routes)

    async def wait_until_settled(self) -> None:
        """Return once no route is pending (tests; the caller bounds the wait)."""
        while self._routes:
            if self._changed is None:
                self._changed = anyio.Event()
            await self._changed.wait()

    async def run(self, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        """Retry every pending route (and those added later) until cancelled."""
        try:
            async with anyio.create_task_group() as group:
                self._group = group
                for name in list(self._routes):
                    group.start_soon(self._retry, name, name=f"schemarouter-pending-{name}")
                task_status.started()
                await anyio.sleep_forever()
        finally:
            self._group = None

    async def _retry(self, name: str) -> None:
        while (pending := self._routes.get(name)) is not None:
            await self._sleep(retry_delay(pending.retries, self._rng))
            if self._routes.get(name) is not pending:
                return
            try:
                await pending.attempt()
            except Exception as exc:  # the route stays pending; a bug is logged with its type
                pending.retries += 1
                pending.reason = pending.describe(exc)
                level = logging.DEBUG if _expected(exc) else logging.WARNING
                logger.log(level, "route %s is still pending: %s", name, pending.reason)
                continue
            del self._routes[name]
            logger.info("route %s registered (retry %d)", name, pending.retries + 1)
            changed, self._changed = self._changed, None
            if changed is not None:
                changed.set()
            return


def _expected(exc: BaseException) -> bool:
    return isinstance(exc, RegistrationError)
