"""Argument schemas every tool bridge can read: a plain ``type`` on each property.

Pydantic shows an optional argument (``str | None = None``) as ``anyOf`` of its type and
``null``, with no ``type`` of its own. Some bridges read only ``type`` (smolagents'
``Tool.from_langchain`` rejects a property without it; others show such an argument, an
array included, as a string). :func:`plain_types` is the arguments model's
``json_schema_extra``: the ``null`` branch is dropped (the argument stays optional: it is
not ``required`` and its default is null) and an argument accepting several schemas keeps
its ``anyOf`` beside the list of their types.
"""

from __future__ import annotations

from typing import Any

__all__ = ["plain_property", "plain_types"]

_NULL = {"type": "null"}


def plain_types(schema: dict[str, Any], model: Any = None) -> None:
    """Give each property of an object *schema* a plain ``type`` (in place)."""
    properties = schema.get("properties")
    if isinstance(properties, dict):
        for name, node in properties.items():
            properties[name] = plain_property(node)


def plain_property(node: Any) -> Any:
    """*node* with a ``type``: its one non-null ``anyOf`` branch merged in, or the list of
    the branches' types beside the ``anyOf``; unchanged when it has a type or cannot have one."""
    if not isinstance(node, dict) or "type" in node or not isinstance(node.get("anyOf"), list):
        return node
    branches = [branch for branch in node["anyOf"] if branch != _NULL]
    rest = {key: value for key, value in node.items() if key != "anyOf"}
    if len(branches) == 1 and isinstance(branches[0], dict) and "type" in branches[0]:
        return {**branches[0], **rest}
    types = [branch.get("type") if isinstance(branch, dict) else None for branch in branches]
    if not branches or not all(isinstance(kind, str) for kind in types):
        return node
    kinds = list(dict.fromkeys(types))
    return {"type": kinds[0] if len(kinds) == 1 else kinds, **rest, "anyOf": branches}
