"""Parsed JSON: the node at a path of members and indexes, or every object in it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

__all__ = ["MISSING", "follow", "objects_in"]

MISSING: Any = object()
"""What :func:`follow` returns when there is no such member or item."""


def follow(node: Any, keys: Iterable[str], entering: Callable[[Any, str], Any] | None = None) -> Any:
    """The node below *node* at *keys*, each an object's member or an array's index (decimal
    digits); :data:`MISSING` where there is none. *entering* may replace the node a key is
    about to be looked up in (a ``$ref`` followed first, say)."""
    for key in keys:
        if entering is not None:
            node = entering(node, key)
        if isinstance(node, dict) and key in node:
            node = node[key]
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            return MISSING
    return node


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
