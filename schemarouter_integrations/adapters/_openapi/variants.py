"""The alternatives of a schema and what kind of value each is: helpers of record reading."""

from __future__ import annotations

from typing import Any

from .schema import SchemaResolver, is_object_like, types_of

_MAX_VARIANTS = 16


def opens(resolver: SchemaResolver, schema: Any) -> bool:
    """Whether *schema* is an object whose members can be fields: every alternative an object."""
    node = resolver.concrete(schema)
    options = variants(resolver, node)
    return all(is_object_like(v) and not is_array(resolver, v) for v in options) and any(
        resolver.properties(v) for v in options
    )


def variants(resolver: SchemaResolver, node: dict[str, Any], depth: int = 0) -> list[dict[str, Any]]:
    """The alternatives of *node*: its non-null ``anyOf``/``oneOf`` options (flattened), or itself."""
    options = node.get("anyOf") or node.get("oneOf")
    if not isinstance(options, list) or depth > 4:
        return [node]
    out: list[dict[str, Any]] = []
    for option in options:
        concrete = resolver.concrete(option)
        if concrete and not is_null_type(concrete):
            out.extend(variants(resolver, concrete, depth + 1))
    return out[:_MAX_VARIANTS] or [node]


def is_array(resolver: SchemaResolver, node: dict[str, Any]) -> bool:
    return any("array" in types_of(part) or "items" in part for part in resolver.all_of(node))


def holds_objects(resolver: SchemaResolver, member: Any) -> bool:
    """Whether *member* is an object or a list of objects in any of its alternatives."""
    for option in variants(resolver, resolver.concrete(member)):
        if is_object_like(option) and not is_array(resolver, option):
            return True
        items = option.get("items")
        if items is not None and any(is_object_like(v) for v in variants(resolver, resolver.concrete(items))):
            return True
    return False


def is_null_type(node: dict[str, Any]) -> bool:
    return node.get("type") == "null" or node.get("enum") == [None]
