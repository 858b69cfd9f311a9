"""Answers relayed from another router's MCP server (routers of routers).

The router's own MCP tool answers ``structuredContent`` with ``records``, ``answered_by``,
``provider``, ``route`` and ``fallbacks``, and marks an ``isError`` result whose every
route was unavailable in ``_meta`` (:data:`ERROR_META_KEY`). A router that calls such a
server through ``add_mcp`` reads from it where the answer came from
(:func:`relayed_provenance`), the fallbacks the other router took
(:func:`relayed_fallbacks`), and whether a failure means "unavailable"
(:func:`relayed_unavailable`), so it plans and falls back across the other router like
across any route. What the other server says is bounded and typed before use.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from ..._contracts import ServerProjectionSpec
from ..._contracts.schemas import ARGUMENT_ROLE
from ...events import InnerFallback, Provenance

__all__ = [
    "ERROR_META_KEY",
    "LOOP_REASON",
    "PROJECTION_ARGUMENT",
    "list_projection",
    "relayed_fallbacks",
    "relayed_provenance",
    "relayed_unavailable",
]

ERROR_META_KEY = "schemarouter/error"
"""``_meta`` key of an ``isError`` result of a router's MCP tool:
``{"type": <error class name>, "unavailable": <bool>}``, and ``"reason": "loop"`` when the
router refused the call as a loop (its hop list)."""
LOOP_REASON = "loop"
PROJECTION_ARGUMENT = "fields"
"""An MCP tool argument of this name taking a list of strings selects the fields returned."""
_MAX_TEXT = 300
_MAX_ITEMS = 64


def _text(value: Any) -> str | None:
    return value[:_MAX_TEXT] if isinstance(value, str) else None


def relayed_provenance(structured: Any, via: str | None = None) -> Provenance | None:
    """Where the other router's answer came from, if it is one: the innermost answerer
    (``answered_by``, ``provider``, ``route``: the other router's own, or those of the
    ``provenance`` it relayed in turn) and the ``chain`` of every level's answerer, *via*
    (this router's access path to the other router) first."""
    if not isinstance(structured, dict) or not isinstance(structured.get("answered_by"), str):
        return None
    if not isinstance(structured.get("route"), list) or not isinstance(structured.get("fallbacks"), list):
        return None
    answered_by = structured["answered_by"][:_MAX_TEXT]
    inner = structured.get("provenance")
    deeper = _innermost(inner) if isinstance(inner, dict) else None
    source: dict[str, Any] = inner if isinstance(inner, dict) and deeper is not None else structured
    chain = deeper if deeper is not None else [answered_by]
    if deeper is not None and chain[0] != answered_by:
        chain = [answered_by, *chain]
    if via is not None:
        chain = [via[:_MAX_TEXT], *chain]
    try:
        return Provenance(
            answered_by=deeper[-1] if deeper is not None else answered_by,
            provider=_text(source.get("provider")),
            route=_paths(source.get("route")),
            chain=chain[:_MAX_ITEMS],
        )
    except ValidationError:
        return None


def _innermost(provenance: dict[str, Any]) -> list[str] | None:
    """The chain a relayed ``provenance`` names (its ``chain``, else its ``answered_by``)."""
    chain = _paths(provenance.get("chain"))
    if chain:
        return chain
    answered_by = _text(provenance.get("answered_by"))
    return [answered_by] if answered_by else None


def _paths(value: Any) -> list[str]:
    items = value[:_MAX_ITEMS] if isinstance(value, list) else []
    return [path[:_MAX_TEXT] for path in items if isinstance(path, str)]


def relayed_fallbacks(structured: Any) -> list[InnerFallback]:
    """The fallbacks the other router took (``structuredContent.fallbacks``), in order."""
    if relayed_provenance(structured) is None:
        return []
    out: list[InnerFallback] = []
    for item in structured["fallbacks"][:_MAX_ITEMS]:
        if not isinstance(item, dict):
            continue
        source, target, reason = _text(item.get("from")), _text(item.get("to")), _text(item.get("reason"))
        if source is None or target is None or reason is None:
            continue
        out.append(
            InnerFallback(from_path=source, to_path=target, reason=reason, scope=_text(item.get("scope")))
        )
    return out


def relayed_unavailable(meta: Any) -> str | None:
    """What an ``isError`` result's ``_meta`` says about the other router: ``"loop"`` when it
    refused the call as a loop (:data:`LOOP_REASON`), ``"unavailable"`` when no route of it
    was available, None when the failure is of another kind (or not a router's)."""
    said = meta.get(ERROR_META_KEY) if isinstance(meta, dict) else None
    if not isinstance(said, dict) or said.get("unavailable") is not True:
        return None
    return LOOP_REASON if said.get("reason") == LOOP_REASON else "unavailable"


def list_projection(input_schema: dict[str, Any]) -> ServerProjectionSpec | None:
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
