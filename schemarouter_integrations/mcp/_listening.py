"""Whether the MCP client of a tool call hears the router's events, and telling it.

A call's events reach the client as log messages (at or above its ``logging/setLevel``,
and on 2026-07-28+ only when the request opted in with its log-level ``_meta`` key) and as
progress notifications (only when the request carries a progress token). When neither can
reach it, the server answers through the router's plain ``invoke`` instead of streaming
the run (:func:`client_listens`). Log messages are sent as plain ``notifications/message``
notifications on the request's stream (:func:`send_log`), not through the SDK's deprecated
logging helpers: the 2026-07-28 protocol deprecates the logging capability, yet older
clients that ask for it still get the router's events.
"""

from __future__ import annotations

import logging
from typing import Any

from mcp.types import LoggingLevel

from .._framework import trace_payload
from ..events import EVENT_TYPES, RouterEvent
from ._logging import ClientLogLevels
from ._sdk import Context, meta_dict, request_log_levels, send_log_message

__all__ = ["LOGGER_NAME", "Notifier", "client_listens", "send_log"]

logger = logging.getLogger("schemarouter_integrations.mcp._server")

LOGGER_NAME = "schemarouter"


def _sent_levels() -> set[LoggingLevel]:
    """Every level a router event is logged at (``log_level`` of each event class)."""
    return {cls.log_level for cls in EVENT_TYPES.values()}


def client_listens(context: Context[Any, Any] | None, levels: ClientLogLevels) -> bool:
    """True when a router event of this call may reach the client: it asked for progress,
    or a log message at one of the events' levels gets through both gates (the client's
    ``logging/setLevel`` and the SDK's per-request opt-in). When unsure, True."""
    if context is None:
        return False
    try:
        request = context.request_context
    except ValueError:  # a Context outside a request: nothing can be sent
        return False
    if progress_requested(request):
        return True
    session = request.session
    sdk_levels = _sdk_log_levels(request)
    passes = (level for level in _sent_levels() if sdk_levels is None or level in sdk_levels)
    return any(levels.allows(session, level) for level in passes)


def progress_requested(request: Any) -> bool:
    """True when the request carries a progress token or an in-process progress callback
    (True as well when the SDK's request channel is of an unknown kind)."""
    meta = meta_dict(request.meta) or {}
    if meta.get("progress_token") is not None or meta.get("progressToken") is not None:
        return True
    channel = getattr(request.session, "_request_outbound", None)
    for _ in range(4):  # the runner wraps the dispatcher's request context
        if channel is None:
            return True
        for name in ("_progress_token", "progress_token", "_on_progress"):
            if hasattr(channel, name):
                return getattr(channel, name) is not None
        channel = getattr(channel, "_inner", None)
    return True


def _sdk_log_levels(request: Any) -> frozenset[str] | None:
    """The log levels the SDK delivers for this request (None: unknown, every level)."""
    return request_log_levels(request)


async def send_log(context: Context[Any, Any], level: LoggingLevel, data: Any) -> None:
    """Send a log message (logger :data:`LOGGER_NAME`) on the stream of *context*'s request,
    at a level the SDK delivers for that request (the same gate as its own logging helper)."""
    request = context.request_context
    delivered = _sdk_log_levels(request)
    if delivered is not None and level not in delivered:
        return
    await send_log_message(request, level, data, LOGGER_NAME)


class Notifier:
    """Sends each router event of one call to the client: a log message (at the event class's
    ``log_level``) and a progress step."""

    def __init__(self, context: Context[Any, Any] | None, levels: ClientLogLevels) -> None:
        self.context = context
        self.levels = levels
        self.steps = 0

    async def __call__(self, event: RouterEvent) -> None:
        context = self.context
        if context is None:
            return
        self.steps += 1
        level: LoggingLevel = type(event).log_level
        try:
            if self.levels.allows(context.session, level):
                await send_log(context, level, trace_payload(event))
            await context.report_progress(self.steps, None, event.type)
        except Exception:  # a client that went away must not fail the run
            logger.debug("could not notify the MCP client of %s", event.type, exc_info=True)
