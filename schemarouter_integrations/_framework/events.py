"""Router events for traces: a compact JSON payload, and the typed event back from JSON."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from ..events import EVENT_TYPES, RouterEvent, ToolResult

__all__ = ["event_from_json", "trace_payload"]


def event_from_json(data: Any) -> RouterEvent | None:
    """Rebuild a typed router event from its ``model_dump(mode="json")``; None if not one.

    A ``run.end`` result comes back as a :class:`ToolResult` with typed events; when the
    result cannot be rebuilt (another package version), the event keeps ``result=None``.
    """
    if not isinstance(data, Mapping):
        return None
    cls = EVENT_TYPES.get(str(data.get("type")))
    if cls is None:
        return None
    payload = dict(data)
    result = payload.get("result")
    if isinstance(result, Mapping) and isinstance(result.get("events"), list):
        inner = [event_from_json(item) for item in result["events"]]
        payload["result"] = {**result, "events": [e for e in inner if e is not None]}
    try:
        return cls.model_validate(payload)
    except ValidationError:
        if "result" not in payload:
            return None
    try:
        return cls.model_validate({**payload, "result": None})
    except ValidationError:
        return None


def trace_payload(event: RouterEvent) -> dict[str, Any]:
    """The event as JSON for traces; ``run.end`` carries a result summary, not the records."""
    data = event.model_dump(mode="json", exclude={"result"})
    result = getattr(event, "result", None)
    if isinstance(result, ToolResult):
        data["result"] = {
            "access_path": result.access_path,
            "provider": result.provider,
            "access_mode": result.access_mode,
            "records": len(result.records),
            "route": list(result.route),
            "fallbacks": result.fallbacks,
        }
    return data
