"""``mcp_ping_probe``: a health probe that pings the session of a registered MCP route."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from mcp_types import METHOD_NOT_FOUND

from ...errors import InvocationError, RegistrationError, SchemaValidationError
from .._bindings import bound_invoker
from .route import McpInvoker
from .sdk import Client, MCPError, error_code

__all__ = ["mcp_ping_probe"]

Probe = Callable[[], Awaitable[bool]]


def mcp_ping_probe(router: Any, tool: str) -> Probe:
    """``async () -> bool``: True when the MCP server behind *tool* answers a ``ping``.

    The probe uses the route's own session and opens it again when it is gone, so a server
    that came back is found by the probe (and its paths reopen). A server that speaks only
    the 2026-07-28 protocol, where ``ping`` was removed, is asked for its tool listing
    instead. Register it for each read-only endpoint:
    ``router.register_health_probe(tool, endpoint, mcp_ping_probe(router, tool))``.
    """
    _invoker(router, tool)  # refuse a tool that is not an MCP route now, not on the first probe

    async def ping(client: Client) -> None:
        try:
            await client.session.send_ping()
        except MCPError as exc:
            if error_code(exc) != METHOD_NOT_FOUND:
                raise
            await client.list_tools(cache_mode="refresh")

    async def probe() -> bool:
        try:
            await _invoker(router, tool).session.run(ping, doing="ping")
        except (InvocationError, SchemaValidationError, RegistrationError):
            return False
        return True

    return probe


def _invoker(router: Any, tool: str) -> McpInvoker:
    return bound_invoker(router, tool, McpInvoker, what="an MCP invoker", registered_with="add_mcp")
