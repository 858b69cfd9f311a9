"""``$ref`` checks for contract schemas, run once when a contract is built.

A contract's schema must be self-contained: every reference resolves inside the schema
itself (nothing is ever fetched, so planning stays free of I/O) and points to a schema, and
no chain of references and in-place applicators (``allOf``, ``not``, ``if``, ...) leads back
to where it started without descending into a nested value, since validating it would
recurse forever. Recursive schemas that descend (a tree whose ``children`` items refer to
the tree) are fine.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from referencing import Registry, Specification
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012, specification_with

if TYPE_CHECKING:
    from referencing._core import Resolver

_REFERENCES = ("$ref", "$dynamicRef", "$recursiveRef")
_IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")
_IN_PLACE_ONE = ("not", "if", "then", "else")
_IN_PLACE_MAPS = ("dependentSchemas", "dependencies")
MAX_IN_PLACE_DEPTH = 64
"""Longest chain of references and in-place applicators allowed on one value."""


class _Node:
    """A subschema with the resolver of its base URI and its dialect."""

    __slots__ = ("contents", "resolver", "specification")

    def __init__(self, contents: Any, resolver: Resolver[Any], specification: Specification[Any]) -> None:
        self.contents = contents
        self.resolver = resolver
        self.specification = specification

    def child(self, contents: Any) -> _Node:
        specification = _dialect(contents, self.specification)
        resource = specification.create_resource(contents)
        return _Node(contents, self.resolver.in_subresource(resource), specification)


class _BadReference(Exception):
    pass


def reference_problem(schema: dict[str, Any]) -> str | None:
    """Why *schema*'s references cannot be used safely, or None when they can."""
    specification = _dialect(schema, DRAFT202012)
    root = specification.create_resource(schema)
    seen: set[int] = set()
    pending = [_Node(schema, Registry().resolver_with_root(root), specification)]
    nodes: list[_Node] = []
    while pending:  # every subschema reachable by nesting or by reference
        node = pending.pop()
        if id(node.contents) in seen:
            continue
        seen.add(id(node.contents))
        nodes.append(node)
        try:
            pending.extend(target for _, target in _references(node))
        except _BadReference as bad:
            return str(bad)
        pending.extend(node.child(sub) for sub in node.specification.subresources_of(node.contents))
    finished: dict[int, bool] = {}  # False while on the current path, True once done
    for node in nodes:
        problem = _cycle_from(node, finished)
        if problem is not None:
            return problem
    return None


def _dialect(contents: Any, default: Specification[Any]) -> Specification[Any]:
    dialect = contents.get("$schema") if isinstance(contents, dict) else None
    return specification_with(dialect, default=default) if isinstance(dialect, str) else default


def _references(node: _Node) -> Iterator[tuple[str, _Node]]:
    contents = node.contents
    if not isinstance(contents, dict):
        return
    for keyword in _REFERENCES:
        ref = contents.get(keyword)
        if not isinstance(ref, str):
            continue
        try:
            resolved = node.resolver.lookup(ref)
        except Unresolvable:
            raise _BadReference(
                f"{keyword} {ref!r} does not resolve inside the schema (contract schemas must be "
                "self-contained; nothing is fetched)"
            ) from None
        if not isinstance(resolved.contents, dict | bool):
            raise _BadReference(f"{keyword} {ref!r} points to something that is not a schema")
        specification = _dialect(resolved.contents, node.specification)
        yield ref, _Node(resolved.contents, resolved.resolver, specification)


def _in_place(node: _Node) -> Iterator[tuple[str, _Node]]:
    """Subschemas applied to the same value as *node*, labelled by the reference used."""
    yield from _references(node)
    contents = node.contents
    if not isinstance(contents, dict):
        return
    children: list[Any] = []
    for keyword in _IN_PLACE_LISTS:
        value = contents.get(keyword)
        children.extend(value if isinstance(value, list) else ())
    children.extend(contents[k] for k in _IN_PLACE_ONE if k in contents)
    for keyword in _IN_PLACE_MAPS:
        value = contents.get(keyword)
        children.extend(value.values() if isinstance(value, dict) else ())
    yield from (("", node.child(c)) for c in children if isinstance(c, dict | bool))


def _cycle_from(start: _Node, finished: dict[int, bool]) -> str | None:
    """An in-place cycle or too long an in-place chain reachable from *start* (iterative DFS)."""
    if id(start.contents) in finished:
        return None
    finished[id(start.contents)] = False
    stack = [(id(start.contents), "", _in_place(start))]
    while stack:
        key, _, children = stack[-1]
        for label, child in children:
            child_key = id(child.contents)
            if child_key not in finished:
                if len(stack) >= MAX_IN_PLACE_DEPTH:
                    return f"references chain more than {MAX_IN_PLACE_DEPTH} schemas onto one value"
                finished[child_key] = False
                stack.append((child_key, label, _in_place(child)))
                break
            if finished[child_key] is False:
                entered = next(i for i, entry in enumerate(stack) if entry[0] == child_key)
                labels = [entry[1] for entry in stack[entered + 1 :]] + [label]
                ref = next((text for text in reversed(labels) if text), "?")
                return f"$ref {ref!r} closes a cycle that never descends into a nested value"
        else:
            finished[key] = True
            stack.pop()
    return None
