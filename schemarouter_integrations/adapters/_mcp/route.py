"""MCP servers as access paths: each selected MCP tool becomes one endpoint of one tool.

``inputSchema`` becomes the endpoint's ``input_schema`` (references inlined), the
``outputSchema`` gives the fields and where the records sit (``{"records": [...]}`` ->
``records_path=["records"]``), and a call answers the ``structuredContent`` (or the JSON
of its text content; text of a tool without fields is a ``{"text": ...}`` record, see
``answers.py``). The server's resources are read-only endpoints too (``resources.py``).
``read_only`` is the application's word only: ``True`` for every
selected tool, or the names of the read-only ones. The server's own annotations
(``readOnlyHint``, ...) are hints from a remote party; they are shown in the endpoint
description and never decide anything, so an MCP tool the application did not classify
stays unclassified and is never an automatic fallback.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Unpack

from ..._lazy import extra_needed

with extra_needed("mcp", "MCP routes need the mcp SDK"):
    from mcp_types import CallToolResult, TextContent, Tool

    from .sdk import Client, MCPError

from ..._caching.keys import answer_scope
from ..._contracts import ServerProjectionSpec, ToolSpec
from ..._execution.hops import HOPS_META_KEY, new_hop_id, outgoing_hops
from ..._execution.notes import call_notes
from ..._planning import ToolCall
from ...errors import (
    InvocationUnavailableError,
    NonRetryableInvocationError,
    RegistrationError,
    RoutingLoopError,
    SchemaRouterError,
)
from .._http import DEFAULT_MAX_RESPONSE_BYTES
from .._options import McpOptions, check_options
from .answers import AnswerReading, raw_result
from .checks import checked_env, checked_headers
from .contract import mcp_contract, tool_description
from .relay import (
    LOOP_REASON,
    relayed_fallbacks,
    relayed_provenance,
    relayed_unavailable,
)
from .resources import Listed, ResourceRef, list_resources, read_resource
from .session import McpSession, check_target

__all__ = ["DEFAULT_TIMEOUT_SECONDS", "McpInvoker", "build_mcp_route", "raw_result", "tool_description"]

_MAX_LISTED_PAGES = 50
DEFAULT_TIMEOUT_SECONDS = 30.0
"""How long connecting and each call of an MCP route may take by default."""


class McpInvoker:
    """A trusted invoker that calls the MCP tool behind each endpoint over one session."""

    def __init__(
        self,
        session: McpSession,
        tools: Mapping[str, str],
        *,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
        list_projections: Mapping[str, ServerProjectionSpec] | None = None,
        hop_id: str | None = None,
        readings: Mapping[str, AnswerReading] | None = None,
        resources: Mapping[str, ResourceRef] | None = None,
    ) -> None:
        self.session = session
        self.hop_id = hop_id or new_hop_id()
        """The id of the router this route belongs to, in the hop list of its calls."""
        self.tools = dict(tools)  # endpoint name -> MCP tool name
        self.max_response_bytes = max_response_bytes
        self.list_projections = dict(list_projections or {})
        """Endpoint name -> its projection, for tools whose projection argument takes a list."""
        target = session.target  # part of the answer key, digested: a URL or command may hold secrets
        secret = repr(target) if isinstance(target, str | Sequence) else ""
        credentials = [*session.headers.items(), ("", secret), *sorted(session.env.items())]
        self.answer_scope = answer_scope(f"mcp:{session.what}", credentials)
        self.readings = dict(readings or {})  # endpoint name -> how its tool's answers are read
        self.resources = dict(resources or {})  # endpoint name -> the resource it reads

    async def __call__(self, call: ToolCall) -> Any:
        resource = self.resources.get(call.endpoint)
        if resource is not None:
            return await read_resource(self.session, resource, call.arguments, limit=self.max_response_bytes)
        tool = self.tools.get(call.endpoint)
        if tool is None:
            raise NonRetryableInvocationError(f"this MCP route has no tool for endpoint {call.endpoint!r}")
        arguments = {**call.arguments, **self._projection(call)}
        meta: Any = {HOPS_META_KEY: outgoing_hops(self.hop_id)}  # the routers this call passed through
        result: CallToolResult = await self.session.run(
            lambda client: client.call_tool(tool, arguments, meta=meta), doing=f"tools/call {tool}"
        )
        if result.is_error:
            said = f"MCP tool {tool} answered an error: {_text(result)[:500]}"
            unavailable = relayed_unavailable(result.meta)  # another router said why
            if unavailable == LOOP_REASON:
                raise RoutingLoopError(said)
            if unavailable is not None:  # no route of the other router was available
                raise InvocationUnavailableError(said)
            raise NonRetryableInvocationError(said)
        reading = self.readings.get(call.endpoint) or AnswerReading(tool, described=True, text_records=False)
        raw = reading.read(result, what=f"MCP tool {tool}", limit=self.max_response_bytes)
        notes = call_notes()
        if notes is not None:
            notes.provenance = relayed_provenance(raw, via=call.access_path)
            notes.inner_fallbacks = relayed_fallbacks(raw)
        return raw

    def _projection(self, call: ToolCall) -> dict[str, Any]:
        """The server projection, a list where the tool's projection argument takes one."""
        spec = self.list_projections.get(call.endpoint)
        out: dict[str, Any] = dict(call.server_projection)
        if spec is not None and isinstance(out.get(spec.parameter), str):
            out[spec.parameter] = [name for name in out[spec.parameter].split(spec.separator) if name]
        return out

    async def aclose(self) -> None:
        await self.session.aclose()


async def build_mcp_route(
    target: Any,
    *,
    name: str,
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
    hop_id: str | None = None,
    **options: Unpack[McpOptions],
) -> tuple[ToolSpec, McpInvoker]:
    """List the server's tools and build the ToolSpec and invoker; nothing is kept on failure.

    Options (:class:`~.._options.McpOptions`): ``provider``, ``access_mode`` (default
    ``"mcp"``), ``tools`` (names to register; default all), ``read_only`` (``True`` or the
    names of the read-only tools), ``fields`` (FieldSpecs or names for every endpoint, or a
    mapping by MCP tool name), ``headers`` (HTTP targets only; sent to that server only),
    ``env`` (command-line targets only: environment variables of the server process, over
    the SDK's default environment), ``timeout_seconds`` (connect and each call; default 30).
    *hop_id* names the router in the hop list each call carries (``_execution/hops.py``).
    """
    what = f"add_mcp(name={name!r})"
    check_options(options, McpOptions, what=what)
    checked = check_target(target)
    headers = options.get("headers")
    if headers and not isinstance(checked, str):
        raise RegistrationError(f"{what}: headers= apply to a URL target only")
    timeout_seconds: Any = options.get("timeout_seconds", DEFAULT_TIMEOUT_SECONDS)
    if isinstance(timeout_seconds, bool) or not isinstance(timeout_seconds, int | float):
        raise RegistrationError(f"{what}: timeout_seconds must be a number of seconds")
    if not 0 < timeout_seconds < math.inf:
        raise RegistrationError(f"{what}: timeout_seconds must be a positive, finite number of seconds")
    env = options.get("env")
    if env and (isinstance(checked, str) or not isinstance(checked, Sequence)):
        raise RegistrationError(f"{what}: env= applies to a command-line target only")
    session = McpSession(
        checked,
        headers=checked_headers(headers, what),
        timeout_seconds=float(timeout_seconds),
        env=checked_env(env, what),
    )
    try:
        listed = await session.run(_list_tools, doing="tools/list")
        resources = await session.run(_list_resources, doing="resources/list")
        spec, names, refs = mcp_contract(
            listed,
            resources,
            name,
            options.get("provider"),
            options.get("access_mode", "mcp"),
            options.get("tools"),
            options.get("read_only"),
            options.get("fields"),
            what,
        )
    except SchemaRouterError as exc:
        await session.aclose()
        if isinstance(exc, RegistrationError):
            raise
        raise RegistrationError(f"{what}: cannot list the tools of {session.what}: {exc}") from exc
    except BaseException:
        await session.aclose()
        raise
    lists = {e.name: e.projection for e in spec.endpoints if e.projection is not None}
    described = {tool.name for tool in listed if isinstance(tool.output_schema, dict)}
    readings = {
        e.name: AnswerReading(names[e.name], names[e.name] in described, text_records=not e.fields)
        for e in spec.endpoints
        if e.name in names
    }
    invoker = McpInvoker(
        session,
        names,
        max_response_bytes=max_response_bytes,
        list_projections=lists,
        hop_id=hop_id,
        readings=readings,
        resources=refs,
    )
    return spec, invoker


async def _list_tools(client: Client) -> list[Tool]:
    found: list[Tool] = []
    cursor: str | None = None
    for _ in range(_MAX_LISTED_PAGES):
        page = await client.list_tools(cursor=cursor, cache_mode="refresh")
        found.extend(page.tools)
        cursor = page.next_cursor
        if cursor is None:
            break
    return found


async def _list_resources(client: Client) -> Listed:
    """The server's resources; none when it refuses to list them (its tools still register)."""
    try:
        return await list_resources(client)
    except MCPError:
        return [], []


def _text(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, TextContent))
