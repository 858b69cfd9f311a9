"""A LangChain callback handler that collects router events from custom events."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler

from .._framework import event_from_json
from ..events import RouterEvent, ToolFallbackEvent

EventCallback = Callable[[RouterEvent], Any]


class SchemaRouterCallbackHandler(BaseCallbackHandler):
    """Collects the router events that ``SchemaRouterTool`` dispatches as custom events.

    ``events`` holds typed :class:`RouterEvent` objects in arrival order, ``by_run`` groups
    them by the LangChain run id of the tool run, ``fallbacks`` lists the ``tool.fallback``
    events. *on_event* (optional) sees each event as it arrives; *types* restricts what is
    kept (default: every router event type, those declared later included). Works with sync
    and async callback managers.
    """

    run_inline = True
    """Called inline, in order, also from async callback managers."""

    def __init__(self, *, on_event: EventCallback | None = None, types: Iterable[str] | None = None) -> None:
        super().__init__()
        self.on_event = on_event
        self.types: frozenset[str] | None = frozenset(types) if types is not None else None
        """The event types kept; None: every type a router event class declares."""
        self.events: list[RouterEvent] = []
        self.by_run: dict[UUID, list[RouterEvent]] = {}
        self._lock = threading.Lock()

    def on_custom_event(
        self,
        name: str,
        data: Any,
        *,
        run_id: UUID,
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        """Keep *data* as a typed router event when *name* is a router event type."""
        if self.types is not None and name not in self.types:
            return
        event = event_from_json(data)
        if event is None or event.type != name:
            return
        with self._lock:
            self.events.append(event)
            self.by_run.setdefault(run_id, []).append(event)
        if self.on_event is not None:
            self.on_event(event)

    @property
    def fallbacks(self) -> list[ToolFallbackEvent]:
        """The ``tool.fallback`` events seen so far."""
        return [e for e in self.events if isinstance(e, ToolFallbackEvent)]

    @property
    def types_seen(self) -> list[str]:
        """Event types in arrival order (handy for asserting a run's shape)."""
        return [e.type for e in self.events]

    def of_type(self, event_type: str) -> list[RouterEvent]:
        return [e for e in self.events if e.type == event_type]

    def clear(self) -> None:
        with self._lock:
            self.events.clear()
            self.by_run.clear()
