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
    from ._events import HealthProbeEvent as HealthProbeEvent
    from ._events import OtherRouterEvent as OtherRouterEvent
    from ._events import PlanCompiledEvent as PlanCompiledEvent
    from ._events import RouteAvailableEvent as RouteAvailableEvent
    from ._events import RoutePrunedEvent as RoutePrunedEvent
    from ._events import RouteUnavailableEvent as RouteUnavailableEvent
    from ._events import RunEndEvent as RunEndEvent
    from ._events import RunErrorEvent as RunErrorEvent
    from ._events import RunStartEvent as RunStartEvent
    from ._events import SchemaRouterEvent as SchemaRouterEvent
    from ._events import ToolEndEvent as ToolEndEvent
    from ._events import ToolErrorEvent as ToolErrorEvent
    from ._events import ToolFallbackEvent as ToolFallbackEvent
    from ._events import ToolHedgeEvent as ToolHedgeEvent
    from ._events import ToolRetryEvent as ToolRetryEvent
    from ._events import ToolStartEvent as ToolStartEvent
    from ._events import dispatch_router_event as dispatch_router_event
    from ._events import instrumentation_event as instrumentation_event
    from ._tool_spec import SchemaRouterToolSpec as SchemaRouterToolSpec
    from ._tool_spec import instrument_router as instrument_router
    from ._workflow import RouterStreamEvent as RouterStreamEvent


__all__, __getattr__, __dir__ = _lazy_attributes(
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
