"""MCP servers as access paths: each selected MCP tool becomes one endpoint of one tool.

``inputSchema`` becomes the endpoint's ``input_schema`` (references inlined), the
``outputSchema`` gives the fields and where the records sit (``{"records": [...]}`` ->
``records_path=["records"]``), and a call answers the ``structuredContent`` (or the JSON
of its text content). ``read_only`` is the application's word only: ``True`` for every
selected tool, or the names of the read-only ones. The server's own annotations
(``readOnlyHint``, ...) are hints from a remote party; they are shown in the endpoint
description and never decide anything, so an MCP tool the application did not classify
stays unclassified and is never an automatic fallback.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any, Unpack

try:
    from mcp import Client
    from mcp_types import CallToolResult, TextContent, Tool
except ImportError as exc:  # pragma: no cover - exercised without the extra only
    raise ImportError(
        'MCP routes need the mcp SDK; install the extra: pip install "schemarouter-integrations[mcp]"'
    ) from exc

from ..._contracts import EndpointSpec, FieldSpec, ServerProjectionSpec, ToolSpec
from ..._contracts.schemas import ARGUMENT_ROLE
from ..._execution.notes import call_notes
from ..._planning import ToolCall
from ...errors import (
    InvocationUnavailableError,
    NonRetryableInvocationError,
    RegistrationError,
    SchemaRouterError,
    SchemaValidationError,
)
from .._fields import (
    coerce_fields,
    is_valid_name,
    merge_fields,
    per_endpoint,
    safe_name,
    short_description,
    unique_name,
    unknown_names,
    with_identity_defaults,
)
from .._http import DEFAULT_MAX_RESPONSE_BYTES
from .._openapi.contract import without_unusable_patterns
from .._openapi.records import find_records, record_properties
from .._openapi.schema import SchemaResolver
from .._options import McpOptions, check_options
from .relay import PROJECTION_ARGUMENT, relayed_fallbacks, relayed_provenance, relayed_unavailable
from .session import McpSession, check_target

__all__ = ["DEFAULT_TIMEOUT_SECONDS", "McpInvoker", "build_mcp_route", "raw_result", "tool_description"]

_HINTS = (
    ("readOnlyHint", "read_only_hint"),
    ("destructiveHint", "destructive_hint"),
    ("idempotentHint", "idempotent_hint"),
    ("openWorldHint", "open_world_hint"),
)
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
    ) -> None:
        self.session = session
        self.tools = dict(tools)  # endpoint name -> MCP tool name
        self.max_response_bytes = max_response_bytes
        self.list_projections = dict(list_projections or {})
        """Endpoint name -> its projection, for tools whose projection argument takes a list."""

    async def __call__(self, call: ToolCall) -> Any:
        tool = self.tools.get(call.endpoint)
        if tool is None:
            raise NonRetryableInvocationError(f"this MCP route has no tool for endpoint {call.endpoint!r}")
        arguments = {**call.arguments, **self._projection(call)}
        result: CallToolResult = await self.session.run(
            lambda client: client.call_tool(tool, arguments), doing=f"tools/call {tool}"
        )
        if result.is_error:
            said = f"MCP tool {tool} answered an error: {_text(result)[:500]}"
            if relayed_unavailable(result.meta):  # another router, every route of it unavailable
                raise InvocationUnavailableError(said)
            raise NonRetryableInvocationError(said)
        raw = raw_result(result, what=f"MCP tool {tool}", limit=self.max_response_bytes)
        notes = call_notes()
        if notes is not None:
            notes.provenance = relayed_provenance(raw)
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


def raw_result(result: CallToolResult, *, what: str = "the MCP tool", limit: int | None = None) -> Any:
    """The raw response of a tool result: its structured content, else its JSON text content.

    Content larger than *limit* bytes (the router's ``max_response_bytes``, as for HTTP
    bodies) is a ``NonRetryableInvocationError``; text that is not JSON is a
    ``SchemaValidationError`` about the response (a data route answers data).
    """
    text = _text(result)
    if limit is not None:
        size = len(text.encode("utf-8", errors="surrogatepass"))
        if result.structured_content is not None and size <= limit:
            size += _json_size(result.structured_content, limit)
        if size > limit:
            raise NonRetryableInvocationError(
                f"{what}: the answer is larger than the limit of {limit} bytes (max_response_bytes)"
            )
    if result.structured_content is not None:
        return result.structured_content
    try:
        return json.loads(text)
    except RecursionError:
        raise SchemaValidationError(
            f"{what} answered JSON nested too deeply to read", subject="response"
        ) from None
    except ValueError:
        shown = " ".join(text.split())[:80]
        raise SchemaValidationError(
            f"{what} answered text that is not JSON ({len(text)} characters: {shown!r})", subject="response"
        ) from None


def _json_size(value: Any, limit: int) -> int:
    """The size of *value* as JSON, counted up to just past *limit* (then it stops)."""
    size = 0
    for piece in json.JSONEncoder(ensure_ascii=False, default=str).iterencode(value):
        size += len(piece.encode("utf-8", errors="surrogatepass"))
        if size > limit:
            break
    return size


async def build_mcp_route(
    target: Any,
    *,
    name: str,
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
    **options: Unpack[McpOptions],
) -> tuple[ToolSpec, McpInvoker]:
    """List the server's tools and build the ToolSpec and invoker; nothing is kept on failure.

    Options (:class:`~.._options.McpOptions`): ``provider``, ``access_mode`` (default
    ``"mcp"``), ``tools`` (names to register; default all), ``read_only`` (``True`` or the
    names of the read-only tools), ``fields`` (FieldSpecs or names for every endpoint, or a
    mapping by MCP tool name), ``headers`` (HTTP targets only; sent to that server only),
    ``timeout_seconds`` (connect and each call; default 30).
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
    session = McpSession(checked, headers=_headers(headers, what), timeout_seconds=float(timeout_seconds))
    try:
        listed = await session.run(_list_tools, doing="tools/list")
        spec, names = _contract(
            listed,
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
    return spec, McpInvoker(session, names, max_response_bytes=max_response_bytes, list_projections=lists)


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


def _contract(
    listed: list[Tool],
    name: str,
    provider: str | None,
    access_mode: str | None,
    tools: Sequence[str] | None,
    read_only: bool | Sequence[str] | None,
    fields: Any,
    what: str,
) -> tuple[ToolSpec, dict[str, str]]:
    by_name = {tool.name: tool for tool in listed}
    chosen = _names(tools, "tools", what)
    if chosen is not None and set(chosen) - set(by_name):
        raise unknown_names(f"{what}: tools=", "MCP tool", set(chosen) - set(by_name), by_name)
    selected = [by_name[n] for n in chosen] if chosen is not None else listed
    if not selected:
        raise RegistrationError(f"{what}: the server lists no tool to register")
    readers = _readers(read_only, {t.name for t in selected}, what)
    if isinstance(fields, Mapping) and set(fields) - {t.name for t in selected}:
        raise unknown_names(f"{what}: fields=", "MCP tool", set(fields) - {t.name for t in selected}, by_name)
    taken: set[str] = set()
    endpoints: list[EndpointSpec] = []
    names: dict[str, str] = {}
    for tool in selected:
        endpoint_name = unique_name(tool.name if is_valid_name(tool.name) else safe_name(tool.name), taken)
        names[endpoint_name] = tool.name
        endpoints.append(_endpoint(tool, endpoint_name, readers(tool.name), fields, what))
    try:
        spec = ToolSpec(name=name, provider=provider, access_mode=access_mode, endpoints=endpoints)
    except SchemaRouterError as exc:
        raise RegistrationError(f"{what}: not a valid contract: {exc}") from exc
    except ValueError as exc:
        raise RegistrationError(f"{what}: not a valid contract: {exc}") from exc
    return spec, names


def _endpoint(tool: Tool, endpoint_name: str, read_only: bool | None, fields: Any, what: str) -> EndpointSpec:
    where = f"{what}, MCP tool {tool.name!r}"
    input_schema = _inline(tool.input_schema, where, "inputSchema")
    input_schema.pop("title", None)
    input_schema = without_unusable_patterns(input_schema)
    projection = _list_projection(input_schema)
    arguments = list(input_schema.get("properties") or {})
    derived, records_path = _fields(tool.output_schema, where)
    override = per_endpoint(fields, tool.name)
    if override is not None:
        derived = merge_fields(derived, coerce_fields(override, what=where))
    try:
        return EndpointSpec(
            name=endpoint_name,
            description=tool_description(tool),
            input_schema=input_schema,
            fields=with_identity_defaults(derived, arguments),
            read_only=read_only,
            records_path=records_path,
            projection=projection,
        )
    except (SchemaRouterError, ValueError) as exc:
        raise RegistrationError(f"{where}: not a valid endpoint: {exc}") from exc


def _list_projection(input_schema: dict[str, Any]) -> ServerProjectionSpec | None:
    """A ``fields`` argument taking a list of strings selects the fields returned (a router's
    MCP tool has one): it becomes the endpoint's projection, marked as the router's business
    so that no model is shown it."""
    properties = input_schema.get("properties")
    if not isinstance(properties, dict):
        return None
    schema = properties.get(PROJECTION_ARGUMENT)
    if not isinstance(schema, dict) or not _takes_string_list(schema):
        return None
    required = input_schema.get("required")
    if isinstance(required, list) and PROJECTION_ARGUMENT in required:
        return None
    properties[PROJECTION_ARGUMENT] = {**schema, ARGUMENT_ROLE: "projection"}
    return ServerProjectionSpec(parameter=PROJECTION_ARGUMENT)


def _takes_string_list(schema: dict[str, Any]) -> bool:
    options = schema.get("anyOf") or schema.get("oneOf") or [schema]
    arrays = [o for o in options if isinstance(o, dict) and o.get("type") == "array"]
    others = [o for o in options if isinstance(o, dict) and o.get("type") not in ("array", "null")]
    items = arrays[0].get("items") if len(arrays) == 1 else None
    return isinstance(items, dict) and items.get("type") == "string" and not others


def tool_description(tool: Tool) -> str:
    """``MCP tool <name> (server hints, untrusted: readOnlyHint=true): <description>``."""
    annotations = tool.annotations
    hints = []
    for wire, attribute in _HINTS:
        value = getattr(annotations, attribute, None) if annotations is not None else None
        if value is not None:
            hints.append(f"{wire}={str(value).lower()}")
    said = f" (server hints, untrusted: {', '.join(hints)})" if hints else ""
    text = short_description(tool.description, getattr(tool, "title", None))
    return f"MCP tool {tool.name}{said}" + (f": {text}" if text else "")


def _fields(output_schema: Any, where: str) -> tuple[tuple[FieldSpec, ...], list[str] | None]:
    """Fields and records path from an ``outputSchema`` (none: the records are not described)."""
    if not isinstance(output_schema, dict):
        return (), None
    resolver = _resolver(output_schema)
    records = find_records(resolver, output_schema)
    out: list[FieldSpec] = []
    for prop in record_properties(resolver, records):
        node = resolver.concrete(prop.schema)
        description = short_description(node.get("description"), node.get("title"))
        try:
            shape: dict[str, Any] | None = resolver.inline(prop.schema, depth=0, annotations=False)
        except RegistrationError:
            shape = None
        wire = None if prop.path == (prop.name,) else list(prop.path)
        try:
            out.append(FieldSpec(name=prop.name, path=wire, description=description, json_schema=shape))
        except (SchemaRouterError, ValueError):
            out.append(FieldSpec(name=prop.name, path=wire, description=description))
    return tuple(out), (None if records.path is None else list(records.path))


def _inline(schema: Any, where: str, part: str) -> dict[str, Any]:
    if not isinstance(schema, dict):
        raise RegistrationError(f"{where}: the {part} is not a JSON Schema object")
    try:
        return _resolver(schema).inline(schema)
    except RegistrationError as exc:
        raise RegistrationError(f"{where}: {part}: {exc}") from exc


def _resolver(schema: dict[str, Any]) -> SchemaResolver:
    return SchemaResolver(schema, "urn:schemarouter:mcp-tool", "3.1")


def _readers(read_only: bool | Sequence[str] | None, selected: set[str], what: str) -> Any:
    """``tool name -> read_only`` from the application's word."""
    if read_only is None or isinstance(read_only, bool):
        return lambda _name: read_only
    named = _names(read_only, "read_only", what) or []
    if set(named) - selected:
        raise unknown_names(f"{what}: read_only=", "selected MCP tool", set(named) - selected, selected)
    return lambda tool_name: True if tool_name in named else None


def _names(value: Any, option: str, what: str) -> list[str] | None:
    if value is None:
        return None
    if (
        isinstance(value, str)
        or not isinstance(value, Sequence)
        or not all(isinstance(v, str) for v in value)
    ):
        raise RegistrationError(f"{what}: {option}= must be a list of MCP tool names")
    return list(dict.fromkeys(value))


def _headers(headers: Mapping[str, str] | None, what: str) -> dict[str, str]:
    from .._url import check_headers  # one rule for every route's headers

    return check_headers(headers, what=what)


def _text(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, TextContent))
