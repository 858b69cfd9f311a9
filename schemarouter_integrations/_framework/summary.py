"""JSON-able summaries of how a model call ended, for traces and tool artifacts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import AllRoutesUnavailableError, AttemptRecord, NoRouteError
from ..events import RouterEvent, RunErrorEvent, ToolFallbackEvent, ToolResult

__all__ = ["failure_summary", "route_summary"]


def route_summary(result: ToolResult) -> dict[str, Any]:
    """The route that answered, the paths tried and the fallbacks taken."""
    return {
        "access_path": result.access_path,
        "provider": result.provider,
        "access_mode": result.access_mode,
        "routes_tried": list(result.route),
        "fallbacks": result.fallbacks,
        "records": len(result.records),
    }


def failure_summary(exc: BaseException, events: Sequence[RouterEvent] = ()) -> dict[str, Any]:
    """Why a run failed: the error, each attempt with its reason, the paths tried.

    Built from the run's ``run.error`` event when there is one (never a header or credential:
    events carry none), else from the error itself.
    """
    ended = next((e for e in reversed(events) if isinstance(e, RunErrorEvent)), None)
    attempts: Sequence[AttemptRecord] = ended.attempts if ended is not None else ()
    if not attempts and isinstance(exc, AllRoutesUnavailableError):
        attempts = exc.attempts
    routes = list(ended.route) if ended is not None else []
    if not routes:
        routes = list(dict.fromkeys(a.access_path for a in attempts))
    summary: dict[str, Any] = {
        "error_type": type(exc).__name__,
        "error": (str(exc).splitlines() or [""])[0],
        "routes_tried": routes,
        "attempts": [
            {
                "access_path": a.access_path,
                "attempt": a.attempt,
                "ok": a.ok,
                "error_type": a.error_type,
                "error": a.error,
            }
            for a in attempts
        ],
        "fallbacks": sum(1 for e in events if isinstance(e, ToolFallbackEvent)),
    }
    if isinstance(exc, NoRouteError):
        summary["cooling_down"] = list(exc.cooling_down)
        summary["unmatched"] = list(exc.unmatched)
    return summary
