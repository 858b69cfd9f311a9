"""LlamaIndex instrumentation events: one ``BaseEvent`` subclass per router event type.

Each event carries the router event's payload fields under the same names, plus
``router_event_type``, ``run_id`` and ``seq``. ``timestamp`` is the router event's time;
``span_id`` is the LlamaIndex span that was active when the event was dispatched.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

# llama_index.core re-exports these without __all__; the ignores only silence that.
from llama_index.core.instrumentation import get_dispatcher  # type: ignore[attr-defined]
from llama_index.core.instrumentation.dispatcher import Dispatcher  # type: ignore[attr-defined]
from llama_index.core.instrumentation.events import BaseEvent
from pydantic import Field

from .._planning.models import CallScope
from ..events import AttemptRecord, RouterEvent, ToolResult

__all__ = [
    "HealthProbeEvent",
    "OtherRouterEvent",
    "PlanCompiledEvent",
    "RouteAvailableEvent",
    "RoutePrunedEvent",
    "RouteUnavailableEvent",
    "RunEndEvent",
    "RunErrorEvent",
    "RunStartEvent",
    "SchemaRouterEvent",
    "ToolEndEvent",
    "ToolErrorEvent",
    "ToolFallbackEvent",
    "ToolRetryEvent",
    "ToolStartEvent",
    "dispatch_router_event",
    "instrumentation_event",
]

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


class _RouteFields(SchemaRouterEvent):
    tool: str
    endpoint: str
    provider: str | None = None
    access_mode: str | None = None

    @property
    def access_path(self) -> str:
        return f"{self.tool}.{self.endpoint}"


class RunStartEvent(SchemaRouterEvent):
    """``run.start``: a routed run began."""

    router_event_type: Literal["run.start"] = "run.start"
    query: str


class PlanCompiledEvent(SchemaRouterEvent):
    """``plan.compiled``: the need, the primary and the precompiled fallbacks."""

    router_event_type: Literal["plan.compiled"] = "plan.compiled"
    need: list[str]
    primary: str | None
    fallbacks: list[str]
    rejected: int


class ToolStartEvent(_RouteFields):
    """``tool.start``: a call on one access path began."""

    router_event_type: Literal["tool.start"] = "tool.start"
    scope: CallScope
    arguments: dict[str, Any]
    server_projection: dict[str, str]


class ToolRetryEvent(_RouteFields):
    """``tool.retry``: the access path is tried again after *delay_seconds*."""

    router_event_type: Literal["tool.retry"] = "tool.retry"
    attempt: int
    delay_seconds: float
    error: str


class ToolErrorEvent(_RouteFields):
    """``tool.error``: a call on one access path failed."""

    router_event_type: Literal["tool.error"] = "tool.error"
    error_type: str
    error: str
    attempts: int
    retryable: bool


class ToolFallbackEvent(SchemaRouterEvent):
    """``tool.fallback``: the run moved from one access path to the next precompiled one."""

    router_event_type: Literal["tool.fallback"] = "tool.fallback"
    from_tool: str
    from_endpoint: str
    to_tool: str
    to_endpoint: str
    from_provider: str | None
    to_provider: str | None
    from_access_mode: str | None
    to_access_mode: str | None
    scope: CallScope
    same_provider: bool
    reason: Literal["unavailable", "binding_unavailable"]


class ToolEndEvent(_RouteFields):
    """``tool.end``: a call on one access path returned records."""

    router_event_type: Literal["tool.end"] = "tool.end"
    records: int
    attempts: int
    duration_ms: float


class RoutePrunedEvent(_RouteFields):
    """``route.pruned``: a fallback was dropped in preflight, or skipped during the run
    because its binding or contract changed after preflight."""

    router_event_type: Literal["route.pruned"] = "route.pruned"
    reason: str


class RouteUnavailableEvent(_RouteFields):
    """``route.unavailable``: the access path entered a cooldown."""

    router_event_type: Literal["route.unavailable"] = "route.unavailable"
    cooldown_seconds: float
    failures: int
    reason: str | None = None


class RouteAvailableEvent(_RouteFields):
    """``route.available``: the access path left its cooldown."""

    router_event_type: Literal["route.available"] = "route.available"
    reason: str


class HealthProbeEvent(_RouteFields):
    """``health.probe``: a trusted health probe ran."""

    router_event_type: Literal["health.probe"] = "health.probe"
    ok: bool
    error: str | None = None
    duration_ms: float
    cooldown_seconds: float | None = None


class RunEndEvent(SchemaRouterEvent):
    """``run.end``: the run succeeded; ``result`` is the :class:`ToolResult`."""

    router_event_type: Literal["run.end"] = "run.end"
    tool: str
    endpoint: str
    fallbacks: int
    result: ToolResult | None = None


class RunErrorEvent(SchemaRouterEvent):
    """``run.error``: the run failed; ``exception`` is the router error (not serialised).

    ``route`` and ``attempts`` say which access paths ran and how each attempt ended.
    """

    router_event_type: Literal["run.error"] = "run.error"
    error_type: str
    error: str
    route: list[str] = Field(default_factory=list)
    attempts: list[AttemptRecord] = Field(default_factory=list)
    exception: BaseException | None = Field(default=None, exclude=True, repr=False)


class OtherRouterEvent(SchemaRouterEvent):
    """A router event type this package does not know yet, with its JSON payload."""

    payload: dict[str, Any] = Field(default_factory=dict)


INSTRUMENTATION_EVENTS: dict[str, type[SchemaRouterEvent]] = {
    cls.model_fields["router_event_type"].default: cls
    for cls in (
        RunStartEvent,
        PlanCompiledEvent,
        ToolStartEvent,
        ToolRetryEvent,
        ToolErrorEvent,
        ToolFallbackEvent,
        ToolEndEvent,
        RoutePrunedEvent,
        RouteUnavailableEvent,
        RouteAvailableEvent,
        HealthProbeEvent,
        RunEndEvent,
        RunErrorEvent,
    )
}
"""Router event type -> instrumentation event class."""


def instrumentation_event(event: RouterEvent) -> SchemaRouterEvent:
    """The LlamaIndex event for *event*, stamped with the active span and the event's time."""
    envelope: dict[str, Any] = {
        "router_event_type": event.type,
        "run_id": event.run_id,
        "seq": event.seq,
        "timestamp": datetime.fromtimestamp(event.timestamp),
    }
    cls = INSTRUMENTATION_EVENTS.get(event.type)
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
