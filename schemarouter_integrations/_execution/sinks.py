"""Event sinks: sync or async callables that see every router event."""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from .._callables import call_problem
from ..errors import InvalidCallbackError
from ..events import RouterEvent

if TYPE_CHECKING:
    import asyncio

EventSink = Callable[[RouterEvent], Any] | Callable[[RouterEvent], Awaitable[Any]]
logger = logging.getLogger("schemarouter_integrations.events")


class EventBus:
    """Delivers events to subscribed sinks; a sink that raises is logged and skipped."""

    def __init__(self) -> None:
        self._sinks: list[EventSink] = []
        self._pending: set[asyncio.Task[None]] = set()

    def subscribe(self, sink: EventSink) -> Callable[[], None]:
        """Add *sink*; returns a function that removes it again.

        Raises :class:`InvalidCallbackError` (a ``TypeError``) when *sink* cannot take one event.
        """
        problem = call_problem(sink, 1)
        if problem is not None:
            raise InvalidCallbackError(f"an event sink takes one RouterEvent, but {problem}")
        self._sinks.append(sink)

        def unsubscribe() -> None:
            if sink in self._sinks:
                self._sinks.remove(sink)

        return unsubscribe

    @property
    def active(self) -> bool:
        """True when a sink is subscribed (publishing to nobody can be skipped)."""
        return bool(self._sinks)

    async def publish(self, event: RouterEvent) -> None:
        """Deliver *event* to every sink in turn, awaiting async sinks."""
        for sink in list(self._sinks):
            try:
                outcome = sink(event)
                if inspect.isawaitable(outcome):
                    await outcome
            except Exception:
                logger.exception("event sink %r failed on %s; the run goes on", sink, event.type)

    def publisher(self, extra: EventSink | None) -> Callable[[RouterEvent], Awaitable[None]]:
        """``publish``, then hand the event to *extra* too (sync or async) when given."""

        async def publish(event: RouterEvent) -> None:
            await self.publish(event)
            handled = extra(event) if extra is not None else None
            if inspect.isawaitable(handled):
                await handled

        return publish

    def publish_sync(self, event: RouterEvent) -> None:
        """Deliver from sync code. Sync sinks run at once; an async sink's awaitable is
        scheduled on the running asyncio loop, or driven to completion when none runs."""
        for sink in list(self._sinks):
            try:
                outcome = sink(event)
            except Exception:
                logger.exception("event sink %r failed on %s", sink, event.type)
                continue
            if inspect.isawaitable(outcome):
                self._deliver_later(sink, event, outcome)

    def _deliver_later(self, sink: EventSink, event: RouterEvent, outcome: Awaitable[Any]) -> None:
        async def deliver() -> None:
            try:
                await outcome
            except Exception:
                logger.exception("event sink %r failed on %s", sink, event.type)

        import asyncio

        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None:
            from .._sync import run_sync

            run_sync(deliver)
            return
        task = loop.create_task(deliver())
        self._pending.add(task)  # keep a reference until it is done
        task.add_done_callback(self._pending.discard)

    async def drain(self) -> None:
        """Wait for async sink deliveries scheduled by :meth:`publish_sync`."""
        import asyncio

        while self._pending:
            await asyncio.gather(*list(self._pending), return_exceptions=True)
