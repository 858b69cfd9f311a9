"""The ``outputSchema`` of the router's MCP tool: what its ``structuredContent`` holds."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .._contracts import FieldSpec

__all__ = ["OUTPUT_SCHEMA", "PROVENANCE_SCHEMA", "output_schema", "without_vendor_keys"]

OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "records": {
            "type": "array",
            "items": {"type": "object"},
            "description": "The records, with canonical field names.",
        },
        "answered_by": {"type": "string", "description": "The access path (tool.endpoint) that answered."},
        "provider": {"type": ["string", "null"]},
        "access_mode": {"type": ["string", "null"]},
        "route": {
            "type": "array",
            "items": {"type": "string"},
            "description": "The access paths tried, in order.",
        },
        "fallbacks": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "from": {"type": "string"},
                    "to": {"type": "string"},
                    "reason": {"type": "string"},
                    "scope": {"type": "string"},
                },
                "required": ["from", "to", "reason"],
            },
            "description": "The fallbacks taken, in order.",
        },
        "cache": {"type": "object", "description": "Set when the answer cache answered: stale, age_seconds."},
        "total": {
            "type": ["integer", "null"],
            "description": "The source's count of matching records, when it reports one.",
        },
        "truncated": {
            "type": "boolean",
            "description": "True when records were left out: the answer holds the first ones only.",
        },
    },
    "required": ["records", "route", "fallbacks"],
}
"""The ``outputSchema`` of the router's tool with no fields known: what ``structuredContent``
holds (:func:`output_schema` adds the record fields the registry can serve)."""

PROVENANCE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "answered_by": {"type": "string"},
        "provider": {"type": ["string", "null"]},
        "route": {"type": "array", "items": {"type": "string"}},
        "chain": {"type": "array", "items": {"type": "string"}},
    },
    "description": (
        "For an answer relayed from other routers over MCP: the innermost router's answer, "
        "and the chain of every level's answerer, outermost first."
    ),
}


def output_schema(fields: Mapping[str, FieldSpec]) -> dict[str, Any]:
    """:data:`OUTPUT_SCHEMA` with the records' *fields* (canonical names) described.

    Vendor keys (``x-...``) and ``$ref``-bearing schemas are left out: the schema is for
    MCP clients and models, who know nothing of the router's own annotations.
    """
    properties: dict[str, Any] = {}
    for name in sorted(fields):
        spec = fields[name]
        schema = without_vendor_keys(spec.json_schema) if isinstance(spec.json_schema, dict) else {}
        if "$ref" in json.dumps(schema, default=str):
            schema = {}
        if spec.description and "description" not in schema:
            schema = {**schema, "description": spec.description}
        properties[name] = schema
    records = {
        **OUTPUT_SCHEMA["properties"]["records"],
        "items": {"type": "object", "properties": properties},
    }
    return {
        **OUTPUT_SCHEMA,
        "properties": {**OUTPUT_SCHEMA["properties"], "records": records, "provenance": PROVENANCE_SCHEMA},
    }


def without_vendor_keys(node: Any) -> Any:
    """*node* with every ``x-...`` key removed, at every depth."""
    if isinstance(node, dict):
        return {
            k: without_vendor_keys(v)
            for k, v in node.items()
            if not (isinstance(k, str) and k.startswith("x-"))
        }
    if isinstance(node, list):
        return [without_vendor_keys(v) for v in node]
    return node
