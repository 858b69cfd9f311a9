"""LlamaIndex instrumentation events: one ``BaseEvent`` subclass per router event type.

The classes are derived from the router's own event types (``events.EVENT_TYPES``), never
written out: each is named like its router event (``ToolFallbackEvent``) and carries its
payload fields under the same names and types, plus ``router_event_type``, ``run_id`` and
``seq``. ``timestamp`` is the router event's time; ``span_id`` is the LlamaIndex span that
was active when the event was dispatched.
"""

from __future__ import annotations

import copy
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

# llama_index.core re-exports these without __all__; the ignores only silence that.
from llama_index.core.instrumentation import get_dispatcher  # type: ignore[attr-defined]
from llama_index.core.instrumentation.dispatcher import Dispatcher  # type: ignore[attr-defined]
from llama_index.core.instrumentation.events import BaseEvent
from pydantic import Field, create_model

from ..events import EVENT_TYPES, RouterEvent

_ENVELOPE = frozenset({"type", "run_id", "seq", "timestamp"})

package_dispatcher: Dispatcher = get_dispatcher("schemarouter_integrations.llamaindex")
"""The parent of this package's dispatchers: attach a handler here to see only router events."""


class SchemaRouterEvent(BaseEvent):
    """Base of every router instrumentation event."""

    router_event_type: str
    run_id: str | None = None
    seq: int = 0

    @classmethod
    def class_name(cls) -> str:
        return cls.__name__


class _RouteEvent(SchemaRouterEvent):
    """Base of the events about one access path; the fields come from the router event."""

    if TYPE_CHECKING:
        tool: str
        endpoint: str

    @property
    def access_path(self) -> str:
        return f"{self.tool}.{self.endpoint}"


def _derived(source: type[RouterEvent]) -> type[SchemaRouterEvent]:
    """The instrumentation event class of the router event class *source*.

    Same name, the payload fields of *source* (annotation, default, ``exclude``, ...) and
    ``router_event_type`` fixed to its type; ``access_path`` where *source* has it.
    """
    event_type: str = source.model_fields["type"].default
    fields: dict[str, Any] = {"router_event_type": (Literal[event_type], event_type)}
    for name, info in source.model_fields.items():
        if name not in _ENVELOPE:
            fields[name] = (info.annotation, copy.copy(info))
    route = isinstance(getattr(source, "access_path", None), property)
    base: type[SchemaRouterEvent] = _RouteEvent if route else SchemaRouterEvent
    return create_model(
        source.__name__,
        __base__=base,
        __module__=__name__,
        __doc__=f"``{event_type}``, the router's :class:`schemarouter_integrations.events."
        f"{source.__name__}` as an instrumentation event.",
        **fields,
    )


class OtherRouterEvent(SchemaRouterEvent):
    """A router event type this package does not know yet, with its JSON payload."""

    payload: dict[str, Any] = Field(default_factory=dict)


INSTRUMENTATION_EVENTS: dict[str, type[SchemaRouterEvent]] = {
    event_type: _derived(source) for event_type, source in EVENT_TYPES.items()
}
"""Router event type -> instrumentation event class, one per type in ``EVENT_TYPES`` (a kind
declared after this module was imported gets its class when its first event is sent)."""

RunStartEvent = INSTRUMENTATION_EVENTS["run.start"]
PlanCompiledEvent = INSTRUMENTATION_EVENTS["plan.compiled"]
ToolStartEvent = INSTRUMENTATION_EVENTS["tool.start"]
ToolRetryEvent = INSTRUMENTATION_EVENTS["tool.retry"]
ToolErrorEvent = INSTRUMENTATION_EVENTS["tool.error"]
ToolFallbackEvent = INSTRUMENTATION_EVENTS["tool.fallback"]
ToolHedgeEvent = INSTRUMENTATION_EVENTS["tool.hedge"]
ToolEndEvent = INSTRUMENTATION_EVENTS["tool.end"]
RoutePrunedEvent = INSTRUMENTATION_EVENTS["route.pruned"]
RouteUnavailableEvent = INSTRUMENTATION_EVENTS["route.unavailable"]
RouteAvailableEvent = INSTRUMENTATION_EVENTS["route.available"]
HealthProbeEvent = INSTRUMENTATION_EVENTS["health.probe"]
RunEndEvent = INSTRUMENTATION_EVENTS["run.end"]
RunErrorEvent = INSTRUMENTATION_EVENTS["run.error"]


def instrumentation_event(event: RouterEvent) -> SchemaRouterEvent:
    """The LlamaIndex event for *event*, stamped with the active span and the event's time."""
    envelope: dict[str, Any] = {
        "router_event_type": event.type,
        "run_id": event.run_id,
        "seq": event.seq,
        "timestamp": datetime.fromtimestamp(event.timestamp),
    }
    cls = INSTRUMENTATION_EVENTS.get(event.type)
    if cls is None and EVENT_TYPES.get(event.type) is type(event):  # a kind declared later
        cls = INSTRUMENTATION_EVENTS[event.type] = _derived(type(event))
    if cls is None:
        return OtherRouterEvent(**envelope, payload=event.payload())
    fields = {name: getattr(event, name) for name in type(event).model_fields if name not in _ENVELOPE}
    return cls(**envelope, **fields)


def dispatch_router_event(event: RouterEvent, dispatcher: Dispatcher | None = None) -> SchemaRouterEvent:
    """Send *event* to LlamaIndex event handlers and return the instrumentation event sent.

    Handlers on *dispatcher* (default: this package's, ``schemarouter_integrations.llamaindex``)
    and on its parents up to the root dispatcher see it.
    """
    converted = instrumentation_event(event)
    (dispatcher or package_dispatcher).event(converted)
    return converted
