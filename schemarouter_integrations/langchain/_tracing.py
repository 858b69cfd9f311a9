"""Mirroring one router run into LangChain callbacks and LangSmith.

For every router event of a tool run :class:`RunTracing`

1. dispatches a LangChain custom event named by the event type with its JSON payload, with
   the tool run as parent, so ``on_custom_event`` handlers and ``astream_events(version="v2")``
   see it;
2. appends it to the events of the tool's LangSmith run (the ``LangChainTracer`` run of the
   tool; LangSmith keeps no custom events by itself), sent when the tool run ends;
3. turns ``tool.start`` ... ``tool.end``/``tool.error`` into a child tool run per attempted
   route (named ``tool.endpoint``, inputs = the call's arguments, outputs or error), through
   the tool's callback manager so every tracer records the route tree.

At the end it writes the answering route, provider, access mode and fallback count into the
tool run's metadata and replaces the tool run's outputs by a compact summary (the records
and the route, not the whole ``ToolResult`` with its plan and events); a failed run gets an
error and the routes tried with their reasons (:meth:`RunTracing.fail`).

It costs nothing nobody asked for: no custom event is dispatched unless a handler takes
custom events, no child run is started without a handler, and the LangGraph custom stream
(``stream_mode="custom"``) gets the events only inside a graph; when nobody listens at all
(:func:`listened`), the tool does not stream the run.
"""

from __future__ import annotations

import json
import sys
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from langchain_core.callbacks import (
    AsyncCallbackHandler,
    AsyncCallbackManager,
    AsyncCallbackManagerForToolRun,
    BaseCallbackHandler,
    BaseCallbackManager,
    CallbackManager,
    CallbackManagerForToolRun,
    adispatch_custom_event,
    dispatch_custom_event,
)

from .._framework import is_openinference_handler, route_summary, trace_payload
from ..events import (
    RouterEvent,
    RunEndEvent,
    RunErrorEvent,
    ToolEndEvent,
    ToolErrorEvent,
    ToolHedgeEvent,
    ToolResult,
    ToolStartEvent,
)
from ._graph import graph_writer

AnyToolRunManager = CallbackManagerForToolRun | AsyncCallbackManagerForToolRun
METADATA_PREFIX = "schemarouter_"


class RouteAttemptError(Exception):
    """Recorded as the error of a route's child run (never raised)."""


@dataclass(frozen=True, slots=True)
class _Start:
    path: str
    inputs: dict[str, Any]
    metadata: dict[str, Any]


@dataclass(frozen=True, slots=True)
class _End:
    path: str
    outputs: dict[str, Any] | None = None
    error: str | None = None


_Action = _Start | _End
_M = TypeVar("_M", CallbackManager, AsyncCallbackManager)


def listened(run_manager: AnyToolRunManager | None) -> bool:
    """Whether anyone hears a tool run's router events: a callback handler on the run (a
    tracer, LangSmith's included, when tracing is on) or, inside a LangGraph node, the
    graph's custom stream. When nobody does, :class:`RunTracing` would have nothing to do."""
    if run_manager is not None and (run_manager.handlers or run_manager.inheritable_handlers):
        return True
    return graph_writer() is not None


class RunTracing:
    """Mirrors one router run into the callbacks and traces of one LangChain tool run."""

    def __init__(self, run_manager: AnyToolRunManager | None, *, routes_drawn: bool = False) -> None:
        """*routes_drawn*: the router's route spans are drawn by ``otel.instrument``, so the
        child run per route is not handed to OpenInference tracers (it would draw each twice)."""
        self.run_manager = run_manager
        self.tool_runs = _tracer_runs(run_manager)
        children = run_manager.get_child() if run_manager is not None else None
        if children is not None and routes_drawn:
            _drop_openinference(children)  # get_child() made it for this run alone
        # without a handler there is nobody to tell: no custom events, no child runs
        self._children: CallbackManager | AsyncCallbackManager | None = (
            children if children is not None and children.handlers else None
        )
        self._custom = self._children is not None and any(
            _wants_custom_events(handler) for handler in self._children.handlers
        )
        self._graph = graph_writer()
        self._open: dict[str, Any] = {}
        self._outrun: set[str] = set()  # routes a hedge started from: they finish after the run

    # -- sync ------------------------------------------------------------------------
    def emit(self, event: RouterEvent) -> None:
        """Mirror *event* from sync code (the tool's ``_run``)."""
        self._record(event)
        if not isinstance(self._children, CallbackManager):
            return
        if self._custom:
            dispatch_custom_event(
                event.type, event.model_dump(mode="json"), config={"callbacks": self._children}
            )
        for action in self._actions(event):
            if isinstance(action, _Start):
                self._open[action.path] = _with_metadata(self._children, action).on_tool_start(
                    *_start_args(action), run_id=uuid.uuid4(), name=action.path, inputs=action.inputs
                )
            else:
                child = self._open.pop(action.path, None)
                if child is None:
                    continue
                if action.error is None:
                    child.on_tool_end(action.outputs)
                else:
                    child.on_tool_error(RouteAttemptError(action.error))

    def close(self, reason: str = "the run stopped before the route finished") -> None:
        """End child runs still open (cancellation, an escaping error)."""
        for path in list(self._open):
            self._open.pop(path).on_tool_error(RouteAttemptError(reason))

    # -- async -----------------------------------------------------------------------
    async def aemit(self, event: RouterEvent) -> None:
        """Mirror *event* from async code (the tool's ``_arun``)."""
        self._record(event)
        if not isinstance(self._children, AsyncCallbackManager):
            return
        if self._custom:
            await adispatch_custom_event(
                event.type, event.model_dump(mode="json"), config={"callbacks": self._children}
            )
        for action in self._actions(event):
            if isinstance(action, _Start):
                self._open[action.path] = await _with_metadata(self._children, action).on_tool_start(
                    *_start_args(action), run_id=uuid.uuid4(), name=action.path, inputs=action.inputs
                )
            else:
                child = self._open.pop(action.path, None)
                if child is None:
                    continue
                if action.error is None:
                    await child.on_tool_end(action.outputs)
                else:
                    await child.on_tool_error(RouteAttemptError(action.error))

    async def aclose(self, reason: str = "the run stopped before the route finished") -> None:
        """End child runs still open (best effort: LangChain runs the tool in its own task)."""
        for path in list(self._open):
            await self._open.pop(path).on_tool_error(RouteAttemptError(reason))

    # -- shared ----------------------------------------------------------------------
    def finish(self, result: ToolResult, *, max_records: int = 20) -> None:
        """Write the answering route, provider and fallback count into the run metadata, and
        the records (at most *max_records*) with a route summary as the run's outputs."""
        outputs = {"records": result.records[:max_records], "route": route_summary(result)}
        metadata = {
            f"{METADATA_PREFIX}route": result.access_path,
            f"{METADATA_PREFIX}provider": result.provider,
            f"{METADATA_PREFIX}access_mode": result.access_mode,
            f"{METADATA_PREFIX}fallbacks": result.fallbacks,
            f"{METADATA_PREFIX}hedges": sum(1 for e in result.events if isinstance(e, ToolHedgeEvent)),
            f"{METADATA_PREFIX}routes_tried": list(result.route),
            f"{METADATA_PREFIX}records": len(result.records),
            f"{METADATA_PREFIX}cached": result.cached,
            f"{METADATA_PREFIX}stale": result.stale,
            f"{METADATA_PREFIX}cache_age_seconds": result.age_seconds,
        }
        self._annotate(metadata, outputs)

    def fail(self, summary: dict[str, Any]) -> None:
        """Mark the tool run failed: the error, the routes tried and each attempt's reason.

        *summary* is the failure summary of the run (``failure_summary``); it is also the
        run's outputs.
        """
        metadata = {
            f"{METADATA_PREFIX}error_type": summary.get("error_type"),
            f"{METADATA_PREFIX}routes_tried": list(summary.get("routes_tried") or []),
            f"{METADATA_PREFIX}attempts": list(summary.get("attempts") or []),
            f"{METADATA_PREFIX}fallbacks": summary.get("fallbacks", 0),
        }
        self._annotate(
            metadata, {"error": summary}, error=f"{summary.get('error_type')}: {summary.get('error')}"
        )

    def _annotate(self, metadata: dict[str, Any], outputs: dict[str, Any], error: str | None = None) -> None:
        for run in self.tool_runs:
            # a fresh dict: the metadata dict may be shared with the callback manager
            run.extra["metadata"] = {**(run.extra.get("metadata") or {}), **metadata}
            run.extra["__omit_auto_outputs"] = True  # the tracer keeps these outputs at the end
            run.outputs = outputs
            if error is not None:
                run.error = error

    def _record(self, event: RouterEvent) -> None:
        if self._graph is not None:
            self._graph(trace_payload(event))
        if not self.tool_runs:
            return
        entry = {
            "name": event.type,
            "time": datetime.fromtimestamp(event.timestamp, UTC).isoformat(),
            "kwargs": trace_payload(event),
        }
        for run in self.tool_runs:
            run.add_event(dict(entry))

    def _actions(self, event: RouterEvent) -> list[_Action]:
        if isinstance(event, ToolStartEvent):
            actions: list[_Action] = []
            if event.access_path in self._open:
                actions.append(_End(event.access_path, error="restarted"))
            metadata = {
                f"{METADATA_PREFIX}provider": event.provider,
                f"{METADATA_PREFIX}access_mode": event.access_mode,
                f"{METADATA_PREFIX}scope": event.scope,
                f"{METADATA_PREFIX}server_projection": event.server_projection,
            }
            actions.append(_Start(event.access_path, dict(event.arguments), metadata))
            return actions
        if isinstance(event, ToolEndEvent):
            outputs = {
                "records": event.records,
                "attempts": event.attempts,
                "duration_ms": event.duration_ms,
            }
            return [_End(event.access_path, outputs=outputs)]
        if isinstance(event, ToolErrorEvent):
            return [_End(event.access_path, error=f"{event.error_type}: {event.error}")]
        if isinstance(event, ToolHedgeEvent):
            self._outrun.add(f"{event.from_tool}.{event.from_endpoint}")
        if isinstance(event, RunEndEvent | RunErrorEvent):
            return [_End(path, error=self._unfinished(path)) for path in self._open]
        return []

    def _unfinished(self, path: str) -> str:
        if path in self._outrun:
            return "outrun by its hedge: the call finishes after the run, within its own timeout"
        return "the run ended before the route finished"


def _wants_custom_events(handler: BaseCallbackHandler) -> bool:
    """True when *handler* does something with custom events (it overrides ``on_custom_event``)."""
    if getattr(handler, "ignore_custom_event", False):
        return False
    method = getattr(type(handler), "on_custom_event", None)
    return method not in (None, BaseCallbackHandler.on_custom_event, AsyncCallbackHandler.on_custom_event)


def _with_metadata(manager: _M, action: _Start) -> _M:
    """A copy of *manager* whose next run carries the route's metadata."""
    scoped = manager.copy()
    scoped.add_metadata(action.metadata, inherit=False)
    return scoped


def _start_args(action: _Start) -> tuple[dict[str, Any], str]:
    return {"name": action.path}, json.dumps(action.inputs, default=str, sort_keys=True)


def _drop_openinference(manager: BaseCallbackManager) -> None:
    """Remove the handlers of OpenInference instrumentations from *manager* (a fresh child)."""
    for handler in [*manager.handlers, *manager.inheritable_handlers]:
        if is_openinference_handler(handler) and handler in [
            *manager.handlers,
            *manager.inheritable_handlers,
        ]:
            manager.remove_handler(handler)


def _tracer_runs(run_manager: AnyToolRunManager | None) -> list[Any]:
    """The traced run objects of this tool run: one per ``LangChainTracer`` (LangSmith) and
    per OpenInference tracer attached (Phoenix), which keep the outputs and error set here."""
    if run_manager is None:
        return []
    # a LangChainTracer exists only once its module was imported: not importing it here
    # keeps langsmith's run helpers out of the face's import
    module = sys.modules.get("langchain_core.tracers.langchain")
    tracer: Any = None if module is None else module.LangChainTracer
    key = str(run_manager.run_id)
    runs: list[Any] = []
    for handler in [*run_manager.handlers, *run_manager.inheritable_handlers]:
        langsmith = tracer is not None and isinstance(handler, tracer)
        traced = langsmith or is_openinference_handler(handler)
        run_map: Any = getattr(handler, "run_map", None)
        if traced and run_map is not None:
            run = run_map.get(key)
            if run is not None and all(run is not seen for seen in runs):
                runs.append(run)
    return runs
