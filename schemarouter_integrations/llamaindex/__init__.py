"""LlamaIndex integration: the router as one tool, and its events as instrumentation events.

``SchemaRouterToolSpec(router, ...).to_tool_list()`` gives agents one ``FunctionTool`` whose
arguments are ``query`` plus the canonical arguments of the registered endpoints. Every
router event of a call is dispatched through LlamaIndex's instrumentation dispatcher, inside
a span around the routed call, as a ``BaseEvent`` subclass (``ToolFallbackEvent``, ...),
and, inside an agent workflow, to ``handler.stream_events()`` as ``RouterStreamEvent``.

Needs the extra: ``pip install "schemarouter-integrations[llamaindex]"``.
"""

from __future__ import annotations

from .._lazy import extra_needed as _extra_needed

with _extra_needed("llamaindex", "schemarouter_integrations.llamaindex needs llama-index-core"):
    import llama_index.core.instrumentation
    import llama_index.core.tools  # noqa: F401

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes as _lazy_attributes

if TYPE_CHECKING:
    from ._events import (
        HealthProbeEvent,
        OtherRouterEvent,
        PlanCompiledEvent,
        RouteAvailableEvent,
        RoutePrunedEvent,
        RouteUnavailableEvent,
        RunEndEvent,
        RunErrorEvent,
        RunStartEvent,
        SchemaRouterEvent,
        ToolEndEvent,
        ToolErrorEvent,
        ToolFallbackEvent,
        ToolHedgeEvent,
        ToolRetryEvent,
        ToolStartEvent,
        dispatch_router_event,
        instrumentation_event,
    )
    from ._tool_spec import SchemaRouterToolSpec, instrument_router
    from ._workflow import RouterStreamEvent

__all__ = [
    "HealthProbeEvent",
    "OtherRouterEvent",
    "PlanCompiledEvent",
    "RouteAvailableEvent",
    "RoutePrunedEvent",
    "RouteUnavailableEvent",
    "RouterStreamEvent",
    "RunEndEvent",
    "RunErrorEvent",
    "RunStartEvent",
    "SchemaRouterEvent",
    "SchemaRouterToolSpec",
    "ToolEndEvent",
    "ToolErrorEvent",
    "ToolFallbackEvent",
    "ToolHedgeEvent",
    "ToolRetryEvent",
    "ToolStartEvent",
    "dispatch_router_event",
    "instrument_router",
    "instrumentation_event",
]

__getattr__, __dir__ = _lazy_attributes(
    globals(),
    {
        "._events": (
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
            "ToolHedgeEvent",
            "ToolRetryEvent",
            "ToolStartEvent",
            "dispatch_router_event",
            "instrumentation_event",
        ),
        "._tool_spec": ("SchemaRouterToolSpec", "instrument_router"),
        "._workflow": ("RouterStreamEvent",),
    },
)
