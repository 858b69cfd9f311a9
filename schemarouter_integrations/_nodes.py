"""Parsed JSON: one step down (an object's member or an array's item), or every object in it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

__all__ = ["MISSING", "child", "objects_in"]

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


def objects_in(data: Any, *, in_order: bool = False) -> Iterator[dict[str, Any]]:
    """Every object in *data* (itself included), depth first; in document order with
    *in_order*. An object's members are read when the walk goes on past it."""
    pending = [data]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            yield node
            pending.extend(reversed(list(node.values())) if in_order else node.values())
        elif isinstance(node, list):
            pending.extend(reversed(node) if in_order else node)
