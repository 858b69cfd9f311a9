"""One model-facing argument out of the schemas of every endpoint that takes it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .._contracts.schemas import FILTER_NAMES, PATH_SEGMENT, PATH_TAIL

__all__ = ["argument_description", "merge_schemas"]

_NOTES = frozenset({"description", "title", "examples", PATH_SEGMENT, PATH_TAIL, FILTER_NAMES})
"""What one endpoint says of its own argument: left out of the merged schema."""


def merge_schemas(schemas: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One schema for an argument several endpoints take: the schema itself when they agree
    (descriptions, titles, examples and path segments aside), else ``anyOf`` the distinct
    schemas."""
    distinct: list[dict[str, Any]] = []
    seen: set[str] = set()
    for schema in schemas:
        bare = {k: v for k, v in schema.items() if k not in _NOTES}
        key = json.dumps(bare, sort_keys=True, default=str)
        if key not in seen:
            seen.add(key)
            distinct.append(bare)
    return distinct[0] if len(distinct) == 1 else {"anyOf": distinct}


def argument_description(schemas: Sequence[dict[str, Any]], accepted: int, routes: int) -> str:
    """The first description an endpoint gives, and whether only some sources take it."""
    described = next(
        (s["description"] for s in schemas if isinstance(s.get("description"), str) and s["description"]),
        "",
    )
    text = (
        described.strip().rstrip(".") + "."
        if described.strip()
        else "Optional argument for the data sources."
    )
    if accepted < routes:
        text += " Only some sources accept it: leave it out unless you need it."
    return text
