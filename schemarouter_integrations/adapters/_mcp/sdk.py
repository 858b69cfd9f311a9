"""The MCP client of the route adapter on both ``mcp`` SDK lines.

The adapter is written against mcp 2.x (``mcp.Client``, ``MCPServer``, ``MCPError``) and reads
every result as an ``mcp_types`` model (the ``[mcp]`` extra installs ``mcp-types`` on either
line). Under mcp 1.x, :class:`ClientV1` plays ``mcp.Client`` over 1.x's ``ClientSession`` (stdio,
streamable HTTP, or an in-process ``FastMCP``) and hands back its results as ``mcp_types``
models, validated from their wire form; ``MCPServer`` is then ``FastMCP`` and ``MCPError``
``McpError``. :func:`error_code` reads a protocol error's code on both.
"""

from __future__ import annotations

import importlib.util
from contextlib import AsyncExitStack
from datetime import timedelta
from typing import TYPE_CHECKING, Any, TypeVar

import mcp_types

__all__ = ["LINE", "Client", "HttpTarget", "MCPError", "MCPServer", "StdioServerParameters", "error_code"]

LINE: int = 2 if importlib.util.find_spec("mcp.server.mcpserver") is not None else 1
"""The major version of the installed ``mcp`` SDK (1 or 2)."""

M = TypeVar("M")

if TYPE_CHECKING or LINE == 2:
    from mcp import Client, StdioServerParameters
    from mcp.server import MCPServer
    from mcp.shared.exceptions import MCPError
else:
    from mcp import StdioServerParameters
    from mcp.server.fastmcp import FastMCP as MCPServer
    from mcp.shared.exceptions import McpError as MCPError


def error_code(error: Exception) -> int | None:
    """The JSON-RPC code of a protocol error (``MCPError`` / ``McpError``), else None."""
    data = getattr(error, "error", None)
    code = getattr(data, "code", None)
    return code if isinstance(code, int) else None


def _v1_module(name: str) -> Any:
    return importlib.import_module(name)


class HttpTarget:
    """A streamable-HTTP server for :class:`ClientV1` (1.x makes its own ``httpx`` client)."""

    def __init__(self, url: str, headers: dict[str, str], timeout_seconds: float) -> None:
        self.url, self.headers, self.timeout_seconds = url, headers, timeout_seconds


def _as(model: type[M], value: Any) -> M:
    """A 1.x result as the ``mcp_types`` *model*, through its wire form."""
    wire = value.model_dump(by_alias=True, mode="json", exclude_none=True)
    validate: Any = model.model_validate  # type: ignore[attr-defined]
    converted: M = validate(wire)
    return converted


class ClientV1:
    """What the adapter uses of mcp 2.x's ``Client``, over an mcp 1.x ``ClientSession``."""

    def __init__(self, server: Any, *, read_timeout_seconds: float) -> None:
        self._server = server
        self._timeout = timedelta(seconds=read_timeout_seconds)
        self._stack = AsyncExitStack()
        self.session: Any = None
        self.server_capabilities: mcp_types.ServerCapabilities | None = None

    async def __aenter__(self) -> ClientV1:
        v1 = _v1_module  # 1.x names, which mypy (run against mcp 2.x) does not know
        stack, server = self._stack, self._server
        try:
            if isinstance(server, MCPServer):
                connected = v1("mcp.shared.memory").create_connected_server_and_client_session
                opened = connected(server, read_timeout_seconds=self._timeout)
                self.session = await stack.enter_async_context(opened)
            else:
                if isinstance(server, HttpTarget):
                    http = v1("mcp.client.streamable_http").streamablehttp_client(
                        server.url, headers=server.headers, timeout=server.timeout_seconds
                    )
                    read, write, _ = await stack.enter_async_context(http)
                else:
                    from mcp.client.stdio import stdio_client

                    read, write = await stack.enter_async_context(stdio_client(server))
                session = v1("mcp").ClientSession(read, write, read_timeout_seconds=self._timeout)
                self.session = await stack.enter_async_context(session)
                await self.session.initialize()
            capabilities = self.session.get_server_capabilities()
            self.server_capabilities = (
                _as(mcp_types.ServerCapabilities, capabilities) if capabilities else None
            )
        except BaseException:
            await stack.aclose()
            raise
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self._stack.aclose()

    async def list_tools(self, cursor: str | None = None, **_: Any) -> mcp_types.ListToolsResult:
        return _as(mcp_types.ListToolsResult, await self.session.list_tools(cursor))

    async def call_tool(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        *,
        meta: dict[str, Any] | None = None,
        **_: Any,
    ) -> mcp_types.CallToolResult:
        return _as(mcp_types.CallToolResult, await self.session.call_tool(name, arguments, meta=meta))

    async def list_resources(self, cursor: str | None = None, **_: Any) -> mcp_types.ListResourcesResult:
        return _as(mcp_types.ListResourcesResult, await self.session.list_resources(cursor))

    async def list_resource_templates(
        self, cursor: str | None = None, **_: Any
    ) -> mcp_types.ListResourceTemplatesResult:
        return _as(mcp_types.ListResourceTemplatesResult, await self.session.list_resource_templates(cursor))

    async def read_resource(self, uri: Any, **_: Any) -> mcp_types.ReadResourceResult:
        from pydantic import AnyUrl

        return _as(mcp_types.ReadResourceResult, await self.session.read_resource(AnyUrl(str(uri))))


if not TYPE_CHECKING and LINE == 1:
    Client = ClientV1
