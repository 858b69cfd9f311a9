"""The ``mcp`` kind of the landscape: an MCP server added by ``add_mcp``, with ``probe =
"ping"``; imports no MCP SDK until the route is added."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._requests import EntryContext
from .._url_entries import register_probe

if TYPE_CHECKING:
    from .._entries import McpRoute

__all__ = ["add_entry"]


async def add_entry(router: Any, name: str, entry: McpRoute, context: EntryContext) -> None:
    """``router.add_mcp(entry.target, ...)``, then the ping probe when ``probe = "ping"``."""
    spec = await router.add_mcp(
        entry.target,
        name=name,
        headers={k: v.get_secret_value() for k, v in entry.headers.items()} or None,
        env={k: v.get_secret_value() for k, v in entry.env.items()} or None,
        **entry.keywords("provider", "access_mode", "tools", "read_only", "fields", "timeout_seconds"),
    )
    if entry.probe is not None:
        from .probe import mcp_ping_probe

        register_probe(router, name, spec, mcp_ping_probe(router, name))
