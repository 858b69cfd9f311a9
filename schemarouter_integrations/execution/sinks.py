"""Event sinks: sync or async callables that see every router event."""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from .events import RouterEvent

EventSink = Callable[[RouterEvent], Any] | Callable[[RouterEvent], Awaitable[Any]]
logger = logging.getLogger("schemarouter_integrations.events")


class EventBus:
    """Delivers events to subscribed sinks; a sink that raises is logged and skipped."""

    def __init__(self) -> None:
        self._sinks: list[EventSink] = []

    def subscribe(self, sink: EventSink) -> Callable[[], None]:
        """Add *sink*; returns a function that removes it again."""
        if not callable(sink):
            raise TypeError("an event sink must be callable")
        self._sinks.append(sink)

        def unsubscribe() -> None:
            if sink in self._sinks:
                self._sinks.remove(sink)

        return unsubscribe

    async def publish(self, event: RouterEvent) -> None:
        for sink in list(self._sinks):
            try:
                outcome = sink(event)
                if inspect.isawaitable(outcome):
                    await outcome
            except Exception:
                logger.exception("event sink %r failed on %s; the run goes on", sink, event.type)

    def publish_sync(self, event: RouterEvent) -> None:
        """Deliver from sync code: sync sinks run; async sinks are skipped with a log line."""
        for sink in list(self._sinks):
            try:
                outcome = sink(event)
                if inspect.isawaitable(outcome):
                    close = getattr(outcome, "close", None)
                    if close is not None:
                        close()
                    logger.warning("async sink %r skipped for %s (sync context)", sink, event.type)
            except Exception:
                logger.exception("event sink %r failed on %s", sink, event.type)
