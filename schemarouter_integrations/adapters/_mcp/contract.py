"""The contract of an MCP route: each selected MCP tool one endpoint, its resources others.

``inputSchema`` becomes the endpoint's ``input_schema`` (references inlined), the
``outputSchema`` gives the fields and where the records sit; the server's annotations are
shown in the description as untrusted hints and decide nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mcp_types import Tool

from ..._contracts import EndpointSpec, FieldSpec, ToolSpec
from ...errors import RegistrationError, SchemaRouterError
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
from .._openapi.patterns import without_unusable_patterns
from .._openapi.record_fields import record_properties
from .._openapi.records import find_records
from .._openapi.schema import SchemaResolver
from .checks import listed_names, readers_of
from .relay import list_projection
from .resources import Listed, ResourceRef, resource_endpoints

__all__ = ["mcp_contract", "tool_description"]

_HINTS = (
    ("readOnlyHint", "read_only_hint"),
    ("destructiveHint", "destructive_hint"),
    ("idempotentHint", "idempotent_hint"),
    ("openWorldHint", "open_world_hint"),
)


def mcp_contract(
    listed: list[Tool],
    resources: Listed,
    name: str,
    provider: str | None,
    access_mode: str | None,
    tools: Sequence[str] | None,
    read_only: bool | Sequence[str] | None,
    fields: Any,
    what: str,
) -> tuple[ToolSpec, dict[str, str], dict[str, ResourceRef]]:
    by_name = {tool.name: tool for tool in listed}
    chosen = listed_names(tools, "tools", what)
    if chosen is not None and set(chosen) - set(by_name):
        raise unknown_names(f"{what}: tools=", "MCP tool", set(chosen) - set(by_name), by_name)
    selected = [by_name[n] for n in chosen] if chosen is not None else listed
    if not selected and not any(resources):
        raise RegistrationError(f"{what}: the server lists no tool or resource to register")
    readers = readers_of(read_only, {t.name for t in selected}, what)
    if isinstance(fields, Mapping) and set(fields) - {t.name for t in selected}:
        raise unknown_names(f"{what}: fields=", "MCP tool", set(fields) - {t.name for t in selected}, by_name)
    taken: set[str] = set()
    endpoints: list[EndpointSpec] = []
    names: dict[str, str] = {}
    for tool in selected:
        endpoint_name = unique_name(tool.name if is_valid_name(tool.name) else safe_name(tool.name), taken)
        names[endpoint_name] = tool.name
        endpoints.append(_endpoint(tool, endpoint_name, readers(tool.name), fields, what))
    read, refs = resource_endpoints(resources, taken)
    endpoints.extend(read)
    try:
        spec = ToolSpec(name=name, provider=provider, access_mode=access_mode, endpoints=endpoints)
    except SchemaRouterError as exc:
        raise RegistrationError(f"{what}: not a valid contract: {exc}") from exc
    except ValueError as exc:
        raise RegistrationError(f"{what}: not a valid contract: {exc}") from exc
    return spec, names, refs


def _endpoint(tool: Tool, endpoint_name: str, read_only: bool | None, fields: Any, what: str) -> EndpointSpec:
    where = f"{what}, MCP tool {tool.name!r}"
    input_schema = _inline(tool.input_schema, where, "inputSchema")
    input_schema.pop("title", None)
    input_schema = without_unusable_patterns(input_schema)
    projection = list_projection(input_schema)
    arguments = list(input_schema.get("properties") or {})
    derived, records_path = _fields(tool.output_schema, tool.name)
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


def _fields(output_schema: Any, tool_name: str) -> tuple[tuple[FieldSpec, ...], list[str] | None]:
    """Fields and records path from an ``outputSchema`` (none: the records are not described);
    the tool's name names the resource of its records (the rule of OpenAPI responses)."""
    if not isinstance(output_schema, dict):
        return (), None
    resolver = _resolver(output_schema)
    records = find_records(resolver, output_schema, "", tool_name)
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
