"""``serve_mcp``: serve a router over stdio or streamable HTTP until stopped (the CLI's
``serve-mcp`` command calls it)."""

from __future__ import annotations

from typing import Any, Literal

from .._router import SchemaRouter
from ..errors import ConfigurationError
from ._sdk import run_streamable_http
from ._server import router_mcp_server

__all__ = ["TRANSPORTS", "serve_mcp"]

Transport = Literal["stdio", "http"]
TRANSPORTS: tuple[Transport, ...] = ("stdio", "http")


async def serve_mcp(
    router: SchemaRouter,
    *,
    transport: Transport = "stdio",
    host: str = "127.0.0.1",
    port: int = 8000,
    path: str = "/mcp",
    manage_router: bool = True,
    **server_options: Any,
) -> None:
    """Serve ``router_mcp_server(router, **server_options)`` until the client or a signal ends it.

    ``transport="stdio"`` speaks MCP on stdin/stdout (nothing else may write to stdout);
    ``"http"`` serves streamable HTTP at ``http://host:port/path`` with uvicorn (loopback by
    default; DNS-rebinding protection on for loopback hosts). With *manage_router* (the
    default) the router is entered (``async with router``: store and health monitor
    services) and closed at the end, which also closes its MCP sessions and HTTP clients.
    """
    if transport not in TRANSPORTS:
        raise ConfigurationError(f"transport must be one of {TRANSPORTS}, got {transport!r}")
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise ConfigurationError(f"port must be an integer in 0..65535, got {port!r}")
    server = router_mcp_server(router, **server_options)
    if manage_router:
        await router.__aenter__()
    try:
        if transport == "stdio":
            await server.run_stdio_async()
        else:
            await run_streamable_http(server, host=host, port=port, path=path)
    finally:
        if manage_router:
            await router.aclose()
