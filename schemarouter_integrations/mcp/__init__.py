"""MCP: the router as an MCP server (:func:`router_mcp_server`, :func:`serve_mcp`).

``router_mcp_server(router, ...)`` returns an ``mcp`` SDK server (``MCPServer`` on mcp 2.x,
``FastMCP`` on 1.x) with one read-only tool over the router (the model-facing schema of the
LangChain and LlamaIndex tools); ``serve_mcp(router, transport="stdio" | "http")`` serves it
until stopped. MCP servers as routes are added with ``await router.add_mcp(...)``.

Needs the ``mcp`` extra: ``pip install "schemarouter-integrations[mcp]"``.
"""

from __future__ import annotations

from .._lazy import extra_needed as _extra_needed

with _extra_needed("mcp", "schemarouter_integrations.mcp needs the mcp SDK"):
    import mcp.server  # noqa: F401

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes as _lazy_attributes

if TYPE_CHECKING:
    from ._serve import TRANSPORTS as TRANSPORTS
    from ._serve import serve_mcp as serve_mcp
    from ._server import OUTPUT_SCHEMA as OUTPUT_SCHEMA
    from ._server import RouterMCPServer as RouterMCPServer
    from ._server import router_mcp_server as router_mcp_server


__all__, __getattr__, __dir__ = _lazy_attributes(
    globals(),
    {
        "._serve": ("TRANSPORTS", "serve_mcp"),
        "._server": ("OUTPUT_SCHEMA", "RouterMCPServer", "router_mcp_server"),
    },
)
