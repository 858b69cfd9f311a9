"""The router's answers as MCP tool results: structured records, or an ``isError`` result
whose ``_meta`` says what failed, so another router calling this one knows whether to fall
back (:data:`~..adapters._mcp.relay.ERROR_META_KEY`)."""

from __future__ import annotations

from typing import Any

from mcp.types import CallToolResult, TextContent

from .._execution.context import events_of
from .._framework import ModelOutcome
from ..adapters._mcp.relay import ERROR_META_KEY, LOOP_REASON
from ..errors import AllRoutesUnavailableError, InvocationUnavailableError, NoRouteError, RoutingLoopError
from ..events import ToolFallbackEvent
from ._sdk import wire

__all__ = ["error_result", "outcome_result"]


def outcome_result(outcome: ModelOutcome) -> CallToolResult:
    """A model outcome as an MCP tool result: structured records, or an ``isError`` message."""
    result = outcome.result
    if result is None:
        return error_result(outcome.content, outcome.exception)
    fallbacks = [
        {
            "from": f"{e.from_tool}.{e.from_endpoint}",
            "to": f"{e.to_tool}.{e.to_endpoint}",
            "reason": e.reason,
            "scope": e.scope,
        }
        for e in events_of(result, ToolFallbackEvent)  # builds no other event of a quiet run
    ]
    structured: dict[str, Any] = {
        "records": list(result.records),
        "answered_by": result.access_path,
        "provider": result.provider,
        "access_mode": result.access_mode,
        "route": list(result.route),
        "fallbacks": fallbacks,
        "total": result.total,
        "truncated": result.truncated,
    }
    provenance = getattr(result, "provenance", None)
    if provenance is not None:
        structured["provenance"] = provenance.model_dump(mode="json")
    if result.cached:
        structured["cache"] = {"stale": result.stale, "age_seconds": result.age_seconds or 0.0}
    # validated: pydantic-core builds these two small models faster than Trusted can
    text = TextContent(type="text", text=outcome.content)
    return wire(CallToolResult, {"content": [text], "structuredContent": structured})


def error_result(message: str, error: BaseException | None = None) -> CallToolResult:
    """An ``isError`` result; ``_meta`` says what failed (:data:`ERROR_META_KEY`: the error
    type, and ``unavailable`` when no route was available: every route of the run failed as
    unavailable, or the only routes that serve the question are cooling down, so that a
    router calling this one over MCP falls back across it like across any unavailable
    route; ``"reason": "loop"`` when the call was refused as a loop, or every route of the
    run was)."""
    meta = None
    if error is not None:
        said: dict[str, Any] = {"type": type(error).__name__, "unavailable": _unavailable(error)}
        if _loop(error):
            said["reason"] = LOOP_REASON
        meta = {ERROR_META_KEY: said}
    content = [TextContent(type="text", text=message)]
    return wire(CallToolResult, {"content": content, "isError": True, "_meta": meta})


def _unavailable(error: BaseException) -> bool:
    """No route was available: every one failed as unavailable, or those that serve the
    question are cooling down (``NoRouteError.cooling_down``)."""
    if isinstance(error, InvocationUnavailableError):
        return True
    return isinstance(error, NoRouteError) and bool(error.cooling_down)


def _loop(error: BaseException) -> bool:
    """The call was refused as a loop, or every route of the run was."""
    if isinstance(error, AllRoutesUnavailableError):
        refused = [a for a in error.attempts if isinstance(a.exception, RoutingLoopError)]
        return bool(refused) and len(refused) == len(error.attempts)
    return isinstance(error, RoutingLoopError)
