"""``router_mcp_server``: the router as an MCP server with one read-only tool.

The tool is not registered with the SDK's function-based ``ToolManager``: its input schema
is the framework core's model-facing schema (``query`` plus canonical arguments, see
``_framework/surface.py``), which follows the registry. :class:`RouterMCPServer` therefore
answers ``tools/list`` and ``tools/call`` for it itself (by overriding ``MCPServer.list_tools``
and ``MCPServer.call_tool``); tools the application adds with ``@server.tool()`` are served
beside it as usual.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from mcp.types import CallToolResult, GetPromptResult, TextContent, Tool

from .. import __version__
from .._contracts import CachePolicy, HedgePolicy
from .._execution import RunBudget
from .._execution.hops import loop_refusal, read_hops, received, receiving
from .._framework import ToolOptions, ToolSurface, record_fields, run_for_model
from .._planning.models import FallbackScope
from .._router import SchemaRouter
from ..adapters._mcp.relay import ERROR_META_KEY
from ..errors import (
    ConfigurationError,
    RoutingLoopError,
)
from ..events import ToolResult
from ._capabilities import check_prompt_request, declare_only_what_exists, prompt_error
from ._events import RETRY_MILLISECONDS, MemoryEventStore
from ._listening import Notifier, client_listens
from ._logging import ClientLogLevels, install_redaction
from ._output_schema import OUTPUT_SCHEMA, output_schema
from ._results import error_result, outcome_result
from ._sdk import (
    INVALID_PARAMS,
    LINE,
    Context,
    SDKServer,
    call_context,
    install_set_level,
    lowlevel,
    mcp_error,
    meta_dict,
    resumable,
    sdk_call_tool,
    sdk_get_prompt,
    server_options,
    wire,
)

if TYPE_CHECKING:
    from mcp.types import InputRequiredResult  # mcp 2.x only
    from starlette.applications import Starlette

__all__ = ["ERROR_META_KEY", "OUTPUT_SCHEMA", "RouterMCPServer", "output_schema", "router_mcp_server"]

logger = logging.getLogger(__name__)

Mode = Literal["fallback", "gather"]


class RouterMCPServer(SDKServer):
    """The SDK's server (2.x ``MCPServer``, 1.x ``FastMCP``) whose tool *tool_name* answers
    through a :class:`SchemaRouter`."""

    def __init__(
        self,
        router: SchemaRouter,
        *,
        name: str,
        tool_name: str,
        description: str | None,
        options: ToolOptions,
        mode: Mode,
        max_records: int,
    ) -> None:
        self.router = router
        self.tool_name = tool_name
        self.options = options
        self.mode: Mode = mode
        self.max_records = max_records
        self.surface = ToolSurface(router, options=options, description=description, selection=True)
        self.log_levels = ClientLogLevels()
        self._output_schema: tuple[int | None, dict[str, Any]] = (None, OUTPUT_SCHEMA)
        self.event_store = MemoryEventStore()
        sdk_options = server_options(__version__, self.event_store, RETRY_MILLISECONDS)
        super().__init__(name, instructions=self.surface.description, **sdk_options)
        if LINE == 1:  # the version is the low-level server's
            lowlevel(self).version = __version__
        install_set_level(self, self.log_levels.remember)
        declare_only_what_exists(self)
        install_redaction()

    def streamable_http_app(self, **options: Any) -> Starlette:
        """The SDK's streamable-HTTP app; its SSE streams open with a priming event (an event id
        for ``Last-Event-ID``, and ``retry``) unless *options* name another event store."""
        return super().streamable_http_app(**resumable(options, self.event_store, RETRY_MILLISECONDS))

    # -- what the client sees --------------------------------------------------------
    def router_tool(self) -> Tool:
        """The tool definition as of now (rebuilt when the registry changed)."""
        self.surface.refresh()
        annotations = {"readOnlyHint": True, "idempotentHint": True, "openWorldHint": True}
        return wire(
            Tool,
            {
                "name": self.tool_name,
                "title": "Data lookup",
                "description": self.surface.description,
                "inputSchema": self.surface.arguments.json_schema(),
                "outputSchema": self.output_schema(),
                "annotations": annotations,
            },
        )

    def output_schema(self) -> dict[str, Any]:
        """The ``outputSchema``, with the record fields of the registry as of now."""
        version = self.surface.version
        if self._output_schema[0] != version:
            self._output_schema = (version, output_schema(record_fields(self.router, options=self.options)))
        return self._output_schema[1]

    async def list_tools(self) -> list[Tool]:
        own = [tool for tool in await super().list_tools() if tool.name != self.tool_name]
        return [self.router_tool(), *own]

    async def get_prompt(
        self, name: str, arguments: dict[str, Any] | None = None, context: Context[Any, Any] | None = None
    ) -> GetPromptResult | InputRequiredResult:
        check_prompt_request(self, name, arguments)
        try:
            return await sdk_get_prompt(self, name, arguments, context)  # type: ignore[no-any-return]
        except ValueError as exc:  # the SDK's catch-all would answer JSON-RPC code 0
            logger.warning("the prompt %r failed", name, exc_info=True)
            raise prompt_error(exc) from exc

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        context = call_context(self, context)
        if name != self.tool_name:
            if self._tool_manager.get_tool(name) is None:  # the spec's protocol error, not a result
                raise mcp_error(INVALID_PARAMS, f"Unknown tool: {name}", {"name": name})
            return await sdk_call_tool(self, name, arguments, context)  # type: ignore[no-any-return]
        hops = read_hops(_request_meta(context))
        refused = loop_refusal(hops, self.router.hop_id, self.router.max_hops)
        if refused is not None:  # a loop, or a chain deeper than max_hops: unavailable here
            return error_result(f"This data source refused the call: {refused}.", RoutingLoopError(refused))
        token = receiving(hops)  # the calls of this run's MCP routes carry the hop list on
        try:
            return await self._answer(name, arguments, context)
        finally:
            received(token)

    async def _answer(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None
    ) -> CallToolResult | InputRequiredResult:
        self.surface.refresh()
        if self.mode == "gather":
            return await self._gather(arguments, Notifier(context, self.log_levels))
        # no progress token, no log level that gets through: the run is not streamed
        listens = client_listens(context, self.log_levels)
        outcome = await run_for_model(
            self.router,
            arguments,
            arguments=self.surface.arguments,
            options=self.options,
            on_event=Notifier(context, self.log_levels) if listens else None,
            max_records=self.max_records,
        )
        return outcome_result(outcome)

    async def _gather(self, arguments: dict[str, Any], notifier: Notifier) -> CallToolResult:
        """``mode="gather"``: every eligible route answers (``router.gather``); records merged."""
        from pydantic import ValidationError

        from .._framework import model_error_message, validation_message

        try:
            checked = self.surface.arguments.model.model_validate(arguments).model_dump()
            request = self.options.request(  # a question too long to read is refused here
                checked.get("query") or "",
                self.surface.arguments.to_canonical(checked),
                fields=checked.get("fields"),
            )
        except ValidationError as exc:
            return error_result(validation_message(exc))
        gather: Any = getattr(self.router, "gather", None)  # the federation feature's router.gather
        try:
            gathered = await gather(request, budget=self.options.budget)
        except Exception as exc:
            message = model_error_message(exc)
            if message is None:
                raise
            return error_result(message, exc)
        results: list[ToolResult] = list(gathered.results)
        for result in results:
            for event in result.events:
                await notifier(event)
        records = list(gathered.records)
        structured: dict[str, Any] = {
            "records": records,
            "route": [path for result in results for path in result.route],
            "fallbacks": [],
            "answered_by": ", ".join(result.access_path for result in results),
            "truncated": any(result.truncated for result in results),
        }
        text = f"Answered by {structured['answered_by']}; {len(records)} record(s)."
        return wire(
            CallToolResult,
            {"content": [TextContent(type="text", text=text)], "structuredContent": structured},
        )


def router_mcp_server(
    router: SchemaRouter,
    *,
    name: str = "schemarouter",
    tool_name: str = "data_lookup",
    description: str | None = None,
    fallback_scope: FallbackScope = "disabled",
    max_fallbacks: int = 3,
    preferred_tools: Sequence[str] = (),
    budget: RunBudget | None = None,
    fields: Sequence[str] | None = None,
    mode: Mode = "fallback",
    max_records: int = 20,
    hedge: HedgePolicy | None = None,
    cache: CachePolicy | None = None,
) -> RouterMCPServer:
    """The router as an ``MCPServer`` (``FastMCP`` under mcp 1.x) with one read-only tool named
    *tool_name*.

    ``tools/list`` shows ``query`` (optional), an optional ``fields`` argument (canonical field
    names) and the canonical arguments under their model-facing names (the schema the LangChain
    and LlamaIndex tools show, rebuilt when the registry changes), an ``outputSchema`` naming
    the record fields the registry can serve, and the annotations ``readOnlyHint``,
    ``idempotentHint`` and ``openWorldHint``. ``tools/call`` answers ``structuredContent``
    (``records``, ``route``, ``fallbacks``, ``answered_by``, and ``provenance`` for an answer
    relayed from another router) with the records as compact text; no route, every route
    unavailable, the budget and bad arguments are ``isError`` results with a model-readable
    message (``_meta`` ``schemarouter/error``), an unknown tool is a JSON-RPC error -32602 (an
    ``isError`` result under mcp 1.x), and programming errors stay on the server. Each router
    event of a call is sent to the client as a log message (logger ``"schemarouter"``, data =
    the event's JSON) at or above the client's ``logging/setLevel`` and, when the client sent a
    progress token, as a progress notification. Scope, fallbacks, preferred tools and budget are
    the application's settings, which the client can neither see nor change; *fields* given here
    override the client's ``fields``.
    """
    if mode not in ("fallback", "gather"):
        raise ConfigurationError(f"mode must be 'fallback' or 'gather', got {mode!r}")
    if mode == "gather" and not callable(getattr(router, "gather", None)):
        raise ConfigurationError("mode='gather' needs a router with gather() (the federation feature)")
    if isinstance(max_records, bool) or not isinstance(max_records, int) or max_records < 1:
        raise ConfigurationError(f"max_records must be a positive integer, got {max_records!r}")
    options = ToolOptions.among(locals())
    options.request("")  # reject invalid settings now, not on the first call
    return RouterMCPServer(
        router,
        name=name,
        tool_name=tool_name,
        description=description,
        options=options,
        mode=mode,
        max_records=max_records,
    )


def _request_meta(context: Context[Any, Any] | None) -> Any:
    """The request ``_meta`` of the call *context* serves (None outside a request)."""
    try:
        return meta_dict(context.request_context.meta) if context is not None else None
    except ValueError:  # a Context made outside a request
        return None
