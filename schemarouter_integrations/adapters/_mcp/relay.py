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

from ...events import InnerFallback, Provenance

__all__ = [
    "ERROR_META_KEY",
    "PROJECTION_ARGUMENT",
    "relayed_fallbacks",
    "relayed_provenance",
    "relayed_unavailable",
]

ERROR_META_KEY = "schemarouter/error"
"""``_meta`` key of an ``isError`` result of a router's MCP tool:
``{"type": <error class name>, "unavailable": <bool>}``."""
PROJECTION_ARGUMENT = "fields"
"""An MCP tool argument of this name taking a list of strings selects the fields returned."""
_MAX_TEXT = 300
_MAX_ITEMS = 64


def _text(value: Any) -> str | None:
    return value[:_MAX_TEXT] if isinstance(value, str) else None


def relayed_provenance(structured: Any) -> Provenance | None:
    """The other router's answer (``answered_by``, ``provider``, ``route``), if it is one."""
    if not isinstance(structured, dict) or not isinstance(structured.get("answered_by"), str):
        return None
    route = structured.get("route")
    if not isinstance(route, list) or not isinstance(structured.get("fallbacks"), list):
        return None
    try:
        return Provenance(
            answered_by=structured["answered_by"][:_MAX_TEXT],
            provider=_text(structured.get("provider")),
            route=[path[:_MAX_TEXT] for path in route[:_MAX_ITEMS] if isinstance(path, str)],
        )
    except ValidationError:
        return None


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


def relayed_unavailable(meta: Any) -> bool:
    """True when an ``isError`` result's ``_meta`` says every route of the other router was unavailable."""
    said = meta.get(ERROR_META_KEY) if isinstance(meta, dict) else None
    return isinstance(said, dict) and said.get("unavailable") is True
