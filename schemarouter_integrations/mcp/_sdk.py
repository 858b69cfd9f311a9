"""Where the two ``mcp`` SDK lines differ, for the router's MCP server.

The ``[mcp]`` extra accepts mcp 1.x and 2.x. The router's server subclasses that line's
server class (:data:`SDKServer`: 2.x ``MCPServer``, 1.x ``FastMCP``) and reaches the parts
the two lines spell differently only through this module: the protocol error, the
low-level server and its handler table, the request's ``_meta``, the call context, the
``logging/setLevel`` handler, log notifications and the streamable-HTTP runner. Wire types
come from ``mcp.types`` (the same names on both lines) and are built from their wire
(camelCase) spelling, which both lines validate (:func:`wire`).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from mcp.types import INTERNAL_ERROR, INVALID_PARAMS, ErrorData, LoggingLevel

__all__ = [
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "LINE",
    "Context",
    "SDKServer",
    "call_context",
    "guard_requests",
    "install_set_level",
    "lowlevel",
    "mcp_error",
    "meta_dict",
    "request_log_levels",
    "resumable",
    "run_streamable_http",
    "sdk_call_tool",
    "sdk_get_prompt",
    "send_log_message",
    "server_options",
    "wire",
]

LINE: int = 2 if importlib.util.find_spec("mcp.server.mcpserver") is not None else 1
"""The major version of the installed ``mcp`` SDK (1 or 2)."""

M = TypeVar("M")

if TYPE_CHECKING or LINE == 2:
    from mcp.server import MCPServer as SDKServer
    from mcp.server.mcpserver.context import Context
else:
    from mcp.server.fastmcp import Context
    from mcp.server.fastmcp import FastMCP as SDKServer


def wire(model: type[M], data: dict[str, Any]) -> M:
    """*model* built from its wire spelling (``inputSchema``, ``isError``, ``_meta``)."""
    validate: Callable[[dict[str, Any]], M] = getattr(model, "model_validate")  # noqa: B009 - any pydantic model
    return validate(data)


def mcp_error(code: int, message: str, data: Any = None) -> Exception:
    """The SDK's protocol error (a JSON-RPC error response): 2.x ``MCPError``, 1.x ``McpError``."""
    from mcp.shared import exceptions

    if LINE == 2:
        return exceptions.MCPError(code=code, message=message, data=data)
    error_class: Any = getattr(exceptions, "McpError")  # noqa: B009 - 1.x only
    raised: Exception = error_class(ErrorData(code=code, message=message, data=data))
    return raised


def lowlevel(server: Any) -> Any:
    """The low-level server under *server* (2.x ``_lowlevel_server``, 1.x ``_mcp_server``)."""
    return server._lowlevel_server if LINE == 2 else server._mcp_server


def call_context(server: Any, context: Any) -> Any:
    """The context of the call being served: 2.x passes it, 1.x has it from ``get_context()``."""
    if context is not None or LINE == 2:
        return context
    return server.get_context()


async def sdk_call_tool(server: Any, name: str, arguments: dict[str, Any], context: Any) -> Any:
    """The SDK server's own ``call_tool`` (an application tool of *server*)."""
    if LINE == 2:
        return await SDKServer.call_tool(server, name, arguments, context)
    return await getattr(SDKServer, "call_tool")(  # noqa: B009 - 1.x signature
        server, name, arguments
    )


async def sdk_get_prompt(server: Any, name: str, arguments: dict[str, Any] | None, context: Any) -> Any:
    """The SDK server's own ``get_prompt``."""
    if LINE == 2:
        return await SDKServer.get_prompt(server, name, arguments, context)
    return await getattr(SDKServer, "get_prompt")(  # noqa: B009 - 1.x signature
        server, name, arguments
    )


def meta_dict(meta: Any) -> dict[str, Any] | None:
    """A request's ``_meta`` as a dict (2.x hands a dict, 1.x a model with extra keys)."""
    if meta is None or isinstance(meta, dict):
        return meta
    dump: Callable[..., dict[str, Any]] | None = getattr(meta, "model_dump", None)
    return dump(by_alias=True, exclude_none=True) if dump is not None else None


def request_log_levels(request: Any) -> frozenset[str] | None:
    """The log levels the SDK delivers for this request (None: every level; 1.x has no gate)."""
    if LINE == 1:
        return None
    from mcp.server.connection import allowed_log_levels

    try:
        return frozenset(allowed_log_levels(request.protocol_version, request.meta))
    except Exception:  # an SDK whose gate reads differently: assume it delivers
        return None


async def send_log_message(request: Any, level: LoggingLevel, data: Any, logger: str) -> None:
    """A ``notifications/message`` on the stream of *request* (a request context)."""
    session = request.session
    if LINE == 1:
        await session.send_log_message(
            level=level, data=data, logger=logger, related_request_id=request.request_id
        )
        return
    from mcp.types import LoggingMessageNotification, LoggingMessageNotificationParams

    params = LoggingMessageNotificationParams(level=level, data=data, logger=logger)
    await session.send_notification(
        LoggingMessageNotification(params=params), related_request_id=request.request_id
    )


def install_set_level(server: Any, remember: Callable[[Any, LoggingLevel], None]) -> None:
    """Answer ``logging/setLevel`` with ``remember(session, level)``."""
    from mcp.types import EmptyResult, SetLevelRequestParams

    low = lowlevel(server)
    if LINE == 2:

        async def set_level(ctx: Any, params: SetLevelRequestParams) -> EmptyResult:
            remember(ctx.session, params.level)
            return EmptyResult()

        low.add_request_handler("logging/setLevel", SetLevelRequestParams, set_level)
        return

    async def set_level_v1(level: LoggingLevel) -> None:
        remember(low.request_context.session, level)

    low.set_logging_level()(set_level_v1)


def guard_requests(server: Any, served: Callable[[str], bool]) -> None:
    """Answer a request method only while ``served(method)``; otherwise -32601 (not found)."""
    low = lowlevel(server)
    if LINE == 2:
        handler_of = low.get_request_handler

        def request_handler(method: str) -> Any:
            return handler_of(method) if served(method) else None

        low.get_request_handler = request_handler
        return
    low.request_handlers = _GuardedHandlers(low.request_handlers, served)


class _GuardedHandlers(dict[Any, Any]):
    """1.x's handler table (keyed by request class): a method not served is not found."""

    def __init__(self, handlers: dict[Any, Any], served: Callable[[str], bool]) -> None:
        super().__init__(handlers)
        self._served = served

    def get(self, key: Any, default: Any = None) -> Any:
        method = getattr(key, "model_fields", {}).get("method")
        if method is not None and isinstance(method.default, str) and not self._served(method.default):
            return default
        return super().get(key, default)


async def run_streamable_http(server: Any, *, host: str, port: int, path: str) -> None:
    """Serve *server* over streamable HTTP at ``http://host:port/path`` until stopped."""
    if LINE == 2:
        await server.run_streamable_http_async(host=host, port=port, streamable_http_path=path)
        return
    settings = server.settings
    settings.host, settings.port, settings.streamable_http_path = host, port, path
    if host not in ("127.0.0.1", "localhost", "::1"):  # 1.x guards loopback hosts only
        settings.transport_security = None
    await server.run_streamable_http_async()


def server_options(version: str, event_store: Any, retry_milliseconds: int) -> dict[str, Any]:
    """The SDK server constructor's keywords: 2.x takes the *version*; 1.x takes the
    streamable-HTTP event store and retry (from 1.23 on) here instead of in its app."""
    if LINE == 2:
        return {"version": version}
    import inspect

    options: dict[str, Any] = {"event_store": event_store}
    if "retry_interval" in inspect.signature(SDKServer.__init__).parameters:
        options["retry_interval"] = retry_milliseconds
    return options


def resumable(options: dict[str, Any], event_store: Any, retry_milliseconds: int) -> dict[str, Any]:
    """2.x ``streamable_http_app`` keywords with *event_store* and the retry unless given (1.x
    has them from the constructor, :func:`server_options`)."""
    if LINE == 1:
        return options
    given = {key: value for key, value in options.items() if value is not None}
    return {**options, "event_store": event_store, "retry_interval": retry_milliseconds, **given}
