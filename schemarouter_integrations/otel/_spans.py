"""Router events to spans: one run span, one child span per attempted route.

An event kind without a rule of its own here becomes a span event: on the span of its
route while that route runs, else on the run span. Runs are told apart by ``run_id``, so
spans of concurrent runs never mix. A failed route's span stays open for the
``route.unavailable`` that follows its ``tool.error`` and ends at the next step of its run.

While an invoker runs, its route span is the current span (:meth:`RunSpans.scope`, an
invocation scope of the router), so the spans of instrumented clients (httpx, requests,
database drivers) are its children. A hedged call may start before its ``tool.start``
reaches the sinks; its route span is then started by the scope and found again by the event
(both know the call by the event's ``seq``).
"""

from __future__ import annotations

import threading
from contextlib import AbstractContextManager
from dataclasses import dataclass, field

from opentelemetry import trace
from opentelemetry.context import Context
from opentelemetry.trace import Span, SpanKind, Status, StatusCode
from opentelemetry.util.types import AttributeValue

from .._framework import current_invocation, failure_summary
from ..events import (
    CacheHitEvent,
    CacheStaleEvent,
    PlanCompiledEvent,
    RouteInnerFallbackEvent,
    RoutePrunedEvent,
    RouterEvent,
    RouteUnavailableEvent,
    RunEndEvent,
    RunErrorEvent,
    RunStartEvent,
    ToolEndEvent,
    ToolErrorEvent,
    ToolFallbackEvent,
    ToolHedgeEvent,
    ToolRetryEvent,
    ToolStartEvent,
)
from . import _attributes as a
from ._attributes import DEFAULT_TOOL_NAME, attributes, compact_json, error_type, result_output
from ._parents import parent_context


def _ns(seconds: float) -> int:
    return int(seconds * 1_000_000_000)


@dataclass
class _Run:
    span: Span
    context: Context
    tool_name: str
    started: float
    routes: dict[str, Span] = field(default_factory=dict)
    by_start: dict[int, Span] = field(default_factory=dict)  # route spans by their tool.start seq
    failed: tuple[str, Span] | None = None
    hedged_from: set[str] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class RunEnded:
    """What the metrics need of a run that ended."""

    tool_name: str
    seconds: float
    error_type: str | None


class RunSpans:
    """Builds the spans of every run from its events; :meth:`handle` takes one event."""

    def __init__(self, tracer: trace.Tracer, *, default_tool_name: str = DEFAULT_TOOL_NAME) -> None:
        self.tracer = tracer
        self.default_tool_name = default_tool_name
        self._runs: dict[str, _Run] = {}
        self._lock = threading.Lock()

    def handle(self, event: RouterEvent) -> RunEnded | None:
        """Record *event*; returns what ended when it ends a run."""
        if event.run_id is None:
            return None
        with self._lock:
            if isinstance(event, RunStartEvent):
                self._runs[event.run_id] = self._start(event)
                return None
            run = self._runs.get(event.run_id)
            if run is None:
                return None
            if isinstance(event, RunEndEvent | RunErrorEvent):
                del self._runs[event.run_id]
                return self._end(run, event)
            self._step(run, event)
            return None

    def scope(self, start: ToolStartEvent) -> AbstractContextManager[object] | None:
        """The route span of the call *start* began, made current for one invoker attempt."""
        if start.run_id is None:
            return None
        with self._lock:
            run = self._runs.get(start.run_id)
            if run is None:
                return None
            span = run.by_start.get(start.seq)
            if span is None:
                span = self._start_route(run, start)
        return trace.use_span(span, end_on_exit=False, record_exception=False, set_status_on_exception=False)

    def close(self) -> None:
        """End every open span (the instrumentation is being removed)."""
        with self._lock:
            runs, self._runs = list(self._runs.values()), {}
        for run in runs:
            self._close_routes(run, "the instrumentation was removed")
            run.span.end()

    # -- the run span ----------------------------------------------------------------
    def _start(self, event: RunStartEvent) -> _Run:
        invocation = current_invocation()
        name = invocation.name if invocation is not None else self.default_tool_name
        values = {
            a.OPERATION: "execute_tool",
            a.TOOL_NAME: name,
            a.TOOL_TYPE: "function",
            a.TOOL_CALL_ID: invocation.call_id if invocation is not None else None,
            a.OI_KIND: "TOOL",
            a.OI_TOOL_NAME: name,
            a.INPUT_VALUE: event.query,
            a.INPUT_MIME: "text/plain",
            "schemarouter.run_id": event.run_id,
            "schemarouter.framework": invocation.framework if invocation is not None else None,
        }
        span = self.tracer.start_span(
            f"execute_tool {name}",
            context=parent_context(),
            kind=SpanKind.INTERNAL,
            attributes=attributes(values),
            start_time=_ns(event.timestamp),
        )
        return _Run(span, trace.set_span_in_context(span), name, event.timestamp)

    def _end(self, run: _Run, event: RunEndEvent | RunErrorEvent) -> RunEnded:
        self._close_routes(run, "the run ended before the route finished")
        span = run.span
        failure: str | None = None
        if isinstance(event, RunEndEvent):
            values: dict[str, object] = {
                "schemarouter.route": f"{event.tool}.{event.endpoint}",
                "schemarouter.fallbacks": event.fallbacks,
            }
            if event.result is not None:
                result = event.result
                values |= {
                    "schemarouter.provider": result.provider,
                    "schemarouter.access_mode": result.access_mode,
                    "schemarouter.routes_tried": list(result.route),
                    "schemarouter.records": len(result.records),
                    "schemarouter.cached": result.cached,
                    "schemarouter.stale": result.stale,
                    "schemarouter.cache_age_seconds": result.age_seconds,
                    a.OUTPUT_VALUE: result_output(result),
                    a.OUTPUT_MIME: "application/json",
                    a.METADATA: {
                        "route": result.access_path,
                        "provider": result.provider,
                        "routes_tried": list(result.route),
                        "fallbacks": result.fallbacks,
                    },
                }
            span.set_attributes(attributes(values))
        else:
            failure = error_type(event.error_type, event.error)
            summary = failure_summary(event.exception or Exception(event.error), [event])
            summary["error_type"] = event.error_type
            span.set_attributes(
                attributes(
                    {
                        a.ERROR_TYPE: failure,
                        "schemarouter.routes_tried": list(event.route),
                        a.METADATA: summary,
                        a.OUTPUT_VALUE: compact_json(summary),
                        a.OUTPUT_MIME: "application/json",
                    }
                )
            )
            span.set_status(Status(StatusCode.ERROR, (event.error.splitlines() or [""])[0][:500]))
        span.end(end_time=_ns(event.timestamp))
        return RunEnded(run.tool_name, max(event.timestamp - run.started, 0.0), failure)

    # -- steps -----------------------------------------------------------------------
    def _step(self, run: _Run, event: RouterEvent) -> None:
        if isinstance(event, RouteUnavailableEvent) and run.failed and run.failed[0] == event.access_path:
            run.failed[1].add_event(event.type, _event_attributes(event), timestamp=_ns(event.timestamp))
            return
        self._end_failed(run)
        when = _ns(event.timestamp)
        if isinstance(event, ToolStartEvent):
            if event.seq not in run.by_start:  # else the invocation scope started it already
                self._start_route(run, event)
        elif isinstance(event, ToolRetryEvent | RouteInnerFallbackEvent):
            span = run.routes.get(event.access_path)
            if span is not None:
                span.add_event(event.type, _event_attributes(event), timestamp=when)
        elif isinstance(event, ToolEndEvent):
            span = run.routes.pop(event.access_path, None)
            if span is not None:
                values = {"schemarouter.attempts": event.attempts, "schemarouter.records": event.records}
                span.set_attributes(values)
                span.end(end_time=when)
        elif isinstance(event, ToolErrorEvent):
            span = run.routes.pop(event.access_path, None)
            if span is not None:
                kind = error_type(event.error_type, event.error)
                span.set_attributes(
                    {
                        "schemarouter.attempts": event.attempts,
                        "schemarouter.retryable": event.retryable,
                        a.ERROR_TYPE: kind,
                    }
                )
                span.set_status(Status(StatusCode.ERROR, f"{event.error_type}: {event.error}"[:500]))
                run.failed = (event.access_path, span)
        elif isinstance(
            event,
            ToolFallbackEvent
            | ToolHedgeEvent
            | RoutePrunedEvent
            | RouteUnavailableEvent
            | CacheHitEvent
            | CacheStaleEvent,
        ):
            if isinstance(event, ToolHedgeEvent):
                run.hedged_from.add(f"{event.from_tool}.{event.from_endpoint}")
            run.span.add_event(event.type, _event_attributes(event), timestamp=when)
        elif isinstance(event, PlanCompiledEvent):
            planned: dict[str, object] = {
                "schemarouter.need": list(event.need),
                "schemarouter.primary": event.primary,
                "schemarouter.planned_fallbacks": list(event.fallbacks),
            }
            run.span.set_attributes(attributes(planned))
        else:  # any other kind: a span event on its route's open span, else on the run span
            path = getattr(event, "access_path", None)
            span = run.routes.get(path) if isinstance(path, str) else None
            (span or run.span).add_event(event.type, _event_attributes(event), timestamp=when)

    def _start_route(self, run: _Run, event: ToolStartEvent) -> Span:
        old = run.routes.pop(event.access_path, None)
        if old is not None:
            old.end()
        values = {
            "schemarouter.tool": event.tool,
            "schemarouter.endpoint": event.endpoint,
            "schemarouter.provider": event.provider,
            "schemarouter.access_mode": event.access_mode,
            "schemarouter.scope": event.scope,
            "schemarouter.server_projection": event.server_projection or None,
            a.OI_KIND: "TOOL",
            a.OI_TOOL_NAME: event.access_path,
            a.INPUT_VALUE: compact_json(event.arguments),
            a.INPUT_MIME: "application/json",
        }
        span = self.tracer.start_span(
            event.access_path,
            context=run.context,
            kind=SpanKind.CLIENT,
            attributes=attributes(values),
            start_time=_ns(event.timestamp),
        )
        run.routes[event.access_path] = run.by_start[event.seq] = span
        return span

    def _end_failed(self, run: _Run) -> None:
        if run.failed is not None:
            run.failed[1].end()
            run.failed = None

    def _close_routes(self, run: _Run, reason: str) -> None:
        self._end_failed(run)
        for path, span in run.routes.items():
            if path in run.hedged_from:  # outrun by its hedge; it finishes after the run
                span.set_attribute("schemarouter.outrun_by_hedge", True)
            else:
                span.set_attribute(a.ERROR_TYPE, "cancelled")
                span.set_status(Status(StatusCode.ERROR, reason))
            span.end()
        run.routes.clear()


def _event_attributes(event: RouterEvent) -> dict[str, AttributeValue]:
    """The event's payload as span-event attributes (its own fields, nothing else)."""
    return attributes(event.payload())
