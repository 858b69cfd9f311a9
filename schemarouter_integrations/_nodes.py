"""One step down parsed JSON: an object's member or an array's item, named by a string key."""

from __future__ import annotations

from typing import Any

__all__ = ["MISSING", "child"]

MISSING: Any = object()
"""What :func:`child` returns when there is no such member or item."""


def child(node: Any, key: str) -> Any:
    """The member *key* of the object *node*, or the item at index *key* (decimal digits) of
    the array *node*; :data:`MISSING` when there is none."""
    if isinstance(node, dict) and key in node:
        return node[key]
    if isinstance(node, list) and key.isdigit() and int(key) < len(node):
        return node[int(key)]
    return MISSING
