"""Reading what an MCP tool answered: structured content, JSON text, or plain text.

* ``structuredContent`` is the answer as given; else the text content is read as JSON.
* A tool registered without fields (no ``outputSchema``, no ``fields=`` from the
  application) that answers text which is not JSON data answers one record
  ``{"text": "<the text>"}`` (:data:`TEXT_FIELD`): many servers answer prose. Where fields
  are declared, such text is a ``SchemaValidationError`` about the response (never a record
  without those fields).
* A tool without an ``outputSchema`` whose answer is one object holding a records array
  answers those records, found by the rule of OpenAPI responses
  (``_openapi/records.py``), the tool's name naming its resource: ``{"entities": [...]}``
  answers the entities, ``{"total": 2, "items": [...]}`` the items.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from mcp_types import CallToolResult, TextContent

from ...errors import NonRetryableInvocationError, SchemaValidationError
from .._openapi.records import find_records
from .._openapi.schema import SchemaResolver

__all__ = ["TEXT_FIELD", "AnswerReading", "found_records", "raw_result"]

TEXT_FIELD = "text"
"""The field of the record a text answer becomes."""
_MAX_DEPTH = 8
_MAX_SAMPLED = 16


@dataclass(frozen=True, slots=True)
class AnswerReading:
    """How the answers of one MCP tool are read (see the module docstring)."""

    tool: str
    """The MCP tool's name: it names the resource of its records."""
    described: bool
    """The tool declares an ``outputSchema`` (its records are located from it)."""
    text_records: bool
    """No fields are declared: a text answer is a ``{"text": ...}`` record."""

    def read(self, result: CallToolResult, *, what: str, limit: int | None) -> Any:
        raw = raw_result(result, what=what, limit=limit, text_records=self.text_records)
        return raw if self.described else found_records(raw, self.tool)


def raw_result(
    result: CallToolResult,
    *,
    what: str = "the MCP tool",
    limit: int | None = None,
    text_records: bool = False,
) -> Any:
    """The raw response of a tool result: its structured content, else its JSON text content.

    Content larger than *limit* bytes (the router's ``max_response_bytes``, as for HTTP
    bodies) is a ``NonRetryableInvocationError``. Text that is not JSON data is, with
    *text_records*, one record ``{"text": ...}``, else a ``SchemaValidationError`` about the
    response (a data route answers data).
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
    if text_records and not result.content:
        return []
    try:
        data = json.loads(text)
    except RecursionError:
        raise SchemaValidationError(
            f"{what} answered JSON nested too deeply to read", subject="response"
        ) from None
    except ValueError:
        data = _NOT_JSON
    if not text_records:
        if data is _NOT_JSON:
            shown = " ".join(text.split())[:80]
            raise SchemaValidationError(
                f"{what} answered text that is not JSON ({len(text)} characters: {shown!r})",
                subject="response",
            )
        return data
    if _is_data(data):
        return data
    if not any(isinstance(block, TextContent) for block in result.content):
        kinds = sorted({str(getattr(block, "type", type(block).__name__)) for block in result.content})
        raise SchemaValidationError(
            f"{what} answered no text, only {', '.join(kinds)} content", subject="response"
        )
    return [{TEXT_FIELD: text}]


_NOT_JSON = object()


def _is_data(value: Any) -> bool:
    """JSON that holds records: an object, or a list of objects."""
    return isinstance(value, dict) or (isinstance(value, list) and all(isinstance(v, dict) for v in value))


def found_records(raw: Any, tool: str) -> Any:
    """The records array inside a single object answer (the OpenAPI rule), else *raw*."""
    if not isinstance(raw, dict):
        return raw
    schema = _schema_of(raw, 0)
    records = find_records(SchemaResolver(schema, "urn:schemarouter:mcp-answer", "3.1"), schema, "", tool)
    if records.path is None:
        return raw
    node: Any = raw
    for key in records.path:
        node = node[key]
    return node


def _schema_of(value: Any, depth: int) -> dict[str, Any]:
    """A JSON Schema describing *value* as far as the records rule reads it (an empty array
    may hold records: the answer's shape does not change with how many there are)."""
    if depth > _MAX_DEPTH:
        return {}
    if isinstance(value, dict):
        return {"type": "object", "properties": {k: _schema_of(v, depth + 1) for k, v in value.items()}}
    if isinstance(value, list):
        objects = [item for item in value[:_MAX_SAMPLED] if isinstance(item, dict)]
        if len(objects) < min(len(value), _MAX_SAMPLED):  # scalars: no records
            return {"type": "array", "items": {}}
        merged: dict[str, Any] = {}
        for item in objects:
            for key in item:
                merged.setdefault(key, {})
        return {"type": "array", "items": {"type": "object", "properties": merged}}
    return {}


def _json_size(value: Any, limit: int) -> int:
    """The size of *value* as JSON, counted up to just past *limit* (then it stops)."""
    size = 0
    for piece in json.JSONEncoder(ensure_ascii=False, default=str).iterencode(value):
        size += len(piece.encode("utf-8", errors="surrogatepass"))
        if size > limit:
            break
    return size


def _text(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, TextContent))
