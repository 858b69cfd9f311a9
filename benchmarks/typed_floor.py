"""The typed floor of the 4-route chain: the least a run can do and still hand back the same objects.

A hand-written loop over a compiled :class:`Plan` (reused, never planned again) and the
bench's in-process invokers. Per run it builds exactly what our run must produce for this
chain, with trusted construction (no validation: :func:`construct` below is pydantic's
``model_construct`` minus its per-field loop, about 2x faster on this machine):

- the 17 events of the run, same classes and payloads, stamped with run id, seq and
  timestamp: ``run.start``, ``plan.compiled``, then per down route ``tool.start``,
  ``tool.error``, ``route.unavailable`` (and ``tool.fallback`` before the next route),
  then ``tool.start`` and ``tool.end`` of the answering route and ``run.end``;
- one ``AttemptRecord`` per attempt (3 failed, 1 ok);
- a cooldown mark per failed route in a plain dict (until, reason, failures);
- the records projected by hand (the two selected fields read at their wire names);
- the ``ToolResult`` carried by ``run.end``.

It leaves out everything else our run does, on purpose: the async event stream
(``router.stream`` and the executor are async generators), publishing to the event bus,
preflight (policy, fingerprints, bindings, arguments), re-checking bindings at call time,
the budget meter, retry policy decisions, the availability store and its ``AvailabilityMark``
objects, output-schema and JSON-data checks of the response, and the error classification
(``falls_back``). So ``ours / floor`` is the price of those guarantees plus any waste.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from pydantic import BaseModel

from schemarouter_integrations import InvocationUnavailableError, Plan, ToolCall, ToolResult
from schemarouter_integrations.events import (
    AttemptRecord,
    PlanCompiledEvent,
    RouterEvent,
    RouteUnavailableEvent,
    RunEndEvent,
    RunStartEvent,
    ToolEndEvent,
    ToolErrorEvent,
    ToolFallbackEvent,
    ToolStartEvent,
)

Invokers = dict[str, Callable[[ToolCall], Awaitable[Any]]]
Marks = dict[str, tuple[float, str, int]]
COOLDOWN_SECONDS = 30.0
M = TypeVar("M", bound=BaseModel)
_TEMPLATES: dict[type[BaseModel], dict[str, Any]] = {}
_set = object.__setattr__


def construct(cls: type[M], **values: Any) -> M:
    """*cls* holding *values*, defaults filled, fields in declaration order, nothing checked.

    The benchmark's models have no private attributes and no default factory that the floor
    leaves unset (``timestamp`` is always given), so a template of plain defaults is enough.
    """
    template = _TEMPLATES.get(cls)
    if template is None:
        template = _TEMPLATES[cls] = {
            name: None if info.is_required() or info.default_factory else info.default
            for name, info in cls.model_fields.items()
        }
    fields = template.copy()
    fields.update(values)
    built = cls.__new__(cls)
    _set(built, "__dict__", fields)
    _set(built, "__pydantic_fields_set__", set(values))
    _set(built, "__pydantic_extra__", None)
    _set(built, "__pydantic_private__", None)
    return built


async def floor_run(
    plan: Plan, invokers: Invokers, marks: Marks, wire: dict[str, dict[str, str]]
) -> ToolResult:
    """Run *plan* the minimal typed way; *wire* maps tool -> canonical field -> wire name."""
    run_id = uuid.uuid4().hex
    events: list[RouterEvent] = []

    def event(cls: type[RouterEvent], **payload: Any) -> RouterEvent:
        built = construct(cls, run_id=run_id, seq=len(events) + 1, timestamp=time.time(), **payload)
        events.append(built)
        return built

    event(RunStartEvent, query=plan.request.query)
    calls = plan.calls
    event(
        PlanCompiledEvent,
        need=list(plan.need),
        primary=calls[0].access_path,
        fallbacks=[c.access_path for c in calls[1:]],
        rejected=len(plan.rejected),
    )
    attempts: list[AttemptRecord] = []
    route: list[str] = []
    left: ToolCall | None = None
    for call in calls:
        who = {
            "tool": call.tool,
            "endpoint": call.endpoint,
            "provider": call.provider,
            "access_mode": call.access_mode,
        }
        if left is not None:
            event(
                ToolFallbackEvent,
                from_tool=left.tool,
                from_endpoint=left.endpoint,
                to_tool=call.tool,
                to_endpoint=call.endpoint,
                from_provider=left.provider,
                to_provider=call.provider,
                from_access_mode=left.access_mode,
                to_access_mode=call.access_mode,
                scope=call.scope,
                same_provider=left.provider == call.provider,
                reason="unavailable",
            )
        path = call.access_path
        route.append(path)
        event(
            ToolStartEvent,
            **who,
            scope=call.scope,
            arguments=dict(call.arguments),
            server_projection=dict(call.server_projection),
        )
        started = time.perf_counter()
        try:
            raw = await invokers[call.tool](call)
        except InvocationUnavailableError as exc:
            error = str(exc)
            attempts.append(
                construct(
                    AttemptRecord,
                    access_path=path,
                    attempt=1,
                    ok=False,
                    error_type=type(exc).__name__,
                    error=error,
                    exception=exc,
                )
            )
            event(
                ToolErrorEvent, **who, error_type=type(exc).__name__, error=error, attempts=1, retryable=True
            )
            failures = marks[path][2] + 1 if path in marks else 1
            reason = f"{type(exc).__name__}: {error}"
            marks[path] = (time.monotonic() + COOLDOWN_SECONDS, reason, failures)
            event(
                RouteUnavailableEvent,
                **who,
                cooldown_seconds=COOLDOWN_SECONDS,
                failures=failures,
                reason=reason,
            )
            left = call
            continue
        names = wire[call.tool]
        records = [{name: row.get(names[name]) for name in call.selected_fields} for row in raw["data"]]
        attempts.append(construct(AttemptRecord, access_path=path, attempt=1, ok=True))
        event(
            ToolEndEvent,
            **who,
            records=len(records),
            attempts=1,
            duration_ms=round((time.perf_counter() - started) * 1000, 3),
        )
        result = construct(
            ToolResult,
            tool=call.tool,
            endpoint=call.endpoint,
            provider=call.provider,
            access_mode=call.access_mode,
            records=records,
            attempts=attempts,
            route=route,
            events=list(events),
            plan=plan,
        )
        event(RunEndEvent, tool=call.tool, endpoint=call.endpoint, fallbacks=len(route) - 1, result=result)
        return result
    raise RuntimeError("every route was down")
