"""MCP resources as read-only endpoints of the server's tool.

Each resource the server lists (``resources/list``) becomes an endpoint without arguments,
and each resource template with simple ``{name}`` variables (``resources/templates/list``)
an endpoint whose arguments are those variables (strings, all required); templates with
other expressions (``{+path}``, ``{?query}``) are left out. An endpoint is named after the
resource's name (``knowledge-graph`` -> ``knowledge_graph``), after the tools' endpoints;
its description names the URI, the MIME type and the server's description, so planning
chooses it by its own words. Reading a resource never changes it: the endpoints are
``read_only=True``.

A read answers the resource's contents: one JSON content (a ``*json`` MIME type) is read as
data, a single object holding a records array answering those records (the rule of
``answers.py``); any other content is one record per content, ``{"uri", "mime_type",
"text"}`` or ``{"uri", "mime_type", "blob"}`` (base64). A server that declares no
resources capability, or refuses to list them, registers its tools alone.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from mcp_types import (
    BlobResourceContents,
    ReadResourceResult,
    Resource,
    ResourceTemplate,
    TextResourceContents,
)

from ..._contracts import EndpointSpec
from ...errors import NonRetryableInvocationError, SchemaValidationError
from .._fields import is_valid_name, safe_name, short_description, unique_name
from .answers import TEXT_FIELD, found_records
from .sdk import Client
from .session import McpSession

__all__ = ["Listed", "ResourceRef", "list_resources", "read_resource", "resource_endpoints"]

logger = logging.getLogger(__name__)

_MAX_LISTED_PAGES = 50
_VARIABLE = re.compile(r"\{([^{}]*)\}")
_SIMPLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True, slots=True)
class ResourceRef:
    """The resource (or template) behind one endpoint."""

    uri: str
    name: str
    variables: tuple[str, ...] = ()
    """The template's variables; empty for a listed resource."""

    def address(self, arguments: dict[str, Any]) -> str:
        """The URI to read, the template's variables filled in (percent-encoded)."""
        if not self.variables:
            return self.uri
        return _VARIABLE.sub(lambda m: quote(str(arguments.get(m.group(1), "")), safe=""), self.uri)


Listed = tuple[list[Resource], list[ResourceTemplate]]


async def list_resources(client: Client) -> Listed:
    """The server's resources and templates (none when it declares no resources capability)."""
    if getattr(client.server_capabilities, "resources", None) is None:
        return [], []
    resources: list[Resource] = []
    templates: list[ResourceTemplate] = []
    cursor: str | None = None
    for _ in range(_MAX_LISTED_PAGES):
        page = await client.list_resources(cursor=cursor, cache_mode="refresh")
        resources.extend(page.resources)
        if (cursor := page.next_cursor) is None:
            break
    for _ in range(_MAX_LISTED_PAGES):
        listed = await client.list_resource_templates(cursor=cursor, cache_mode="refresh")
        templates.extend(listed.resource_templates)
        if (cursor := listed.next_cursor) is None:
            break
    return resources, templates


def resource_endpoints(listed: Listed, taken: set[str]) -> tuple[list[EndpointSpec], dict[str, ResourceRef]]:
    """One read-only endpoint per resource and per simple template, names unique in *taken*."""
    resources, templates = listed
    endpoints: list[EndpointSpec] = []
    refs: dict[str, ResourceRef] = {}
    items: list[Resource | ResourceTemplate] = [*resources, *templates]
    for item in items:
        template = isinstance(item, ResourceTemplate)
        uri = item.uri_template if isinstance(item, ResourceTemplate) else str(item.uri)
        variables = tuple(dict.fromkeys(_VARIABLE.findall(uri))) if template else ()
        if not all(_SIMPLE.fullmatch(v) for v in variables):
            continue
        label = item.name or uri
        name = unique_name(label if is_valid_name(label) else safe_name(label, fallback="resource"), taken)
        kind = "MCP resource template" if template else "MCP resource"
        mime = f" ({item.mime_type})" if item.mime_type else ""
        text = short_description(item.description, getattr(item, "title", None))
        schema: dict[str, Any] = {"type": "object", "properties": {v: {"type": "string"} for v in variables}}
        if variables:
            schema["required"] = list(variables)
        try:
            endpoint = EndpointSpec(
                name=name,
                description=f"{kind} {uri}{mime}" + (f": {text}" if text else ""),
                input_schema=schema,
                read_only=True,
            )
        except ValueError as exc:  # a name or description the contract refuses: left out
            logger.debug("MCP resource %s left out: %s", uri, exc)
            continue
        endpoints.append(endpoint)
        refs[name] = ResourceRef(uri=uri, name=label, variables=variables)
    return endpoints, refs


async def read_resource(
    session: McpSession, ref: ResourceRef, arguments: dict[str, Any], *, limit: int | None
) -> Any:
    """The records of one read of *ref* (see the module docstring)."""
    address = ref.address(arguments)
    what = f"MCP resource {address}"
    result: ReadResourceResult = await session.run(
        lambda client: client.read_resource(address, cache_mode="refresh"), doing=f"resources/read {address}"
    )
    contents = result.contents
    size = sum(len(_body(c).encode("utf-8", errors="surrogatepass")) for c in contents)
    if limit is not None and size > limit:
        raise NonRetryableInvocationError(
            f"{what}: the answer is larger than the limit of {limit} bytes (max_response_bytes)"
        )
    if (
        len(contents) == 1
        and isinstance(contents[0], TextResourceContents)
        and _is_json(contents[0].mime_type)
    ):
        try:
            return found_records(json.loads(contents[0].text), ref.name)
        except (ValueError, RecursionError):
            raise SchemaValidationError(
                f"{what} is {contents[0].mime_type} but not JSON", subject="response"
            ) from None
    return [_record(content) for content in contents]


def _record(content: TextResourceContents | BlobResourceContents) -> dict[str, Any]:
    key = TEXT_FIELD if isinstance(content, TextResourceContents) else "blob"
    return {"uri": str(content.uri), "mime_type": content.mime_type, key: _body(content)}


def _body(content: TextResourceContents | BlobResourceContents) -> str:
    return content.text if isinstance(content, TextResourceContents) else content.blob


def _is_json(mime_type: str | None) -> bool:
    return mime_type is not None and mime_type.split(";")[0].strip().lower().endswith("json")
