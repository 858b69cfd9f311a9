"""Where a response keeps its records, and the properties of one record.

Real documents wrap records in many ways; :func:`find_records` reads the success response
schema through ``$ref`` chains, ``allOf`` and ``anyOf``/``oneOf`` (nullable or not) and
recognises:

- a bare array of objects (records at the root), also as ``anyOf`` of several arrays;
- an envelope ``{data, meta, links, errors, ...}``: records at ``data`` (a list, or a lone
  object that is one record), never at ``errors``, ``links``, ``meta``, ``included``;
- another object with one array-of-objects property (``{total_count, workflow_runs}``), or
  several of which one has a usual name (``items``, ``results``, ...);
- any other object: one record.

A record given as ``anyOf``/``oneOf`` of several object variants has the union of their
properties (the first variant that names a property describes it). A JSON:API resource
(``{id, type, attributes}``) is read as the invoker returns it: ``id`` and ``type`` at
the top, each attribute at ``["attributes", name]`` (see :func:`record_properties`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .schema import SchemaResolver, is_object_like, types_of

_SIDE_MEMBERS = frozenset({"errors", "error", "links", "_links", "meta", "included", "jsonapi", "warnings"})
"""Envelope members that never hold the records."""
_USUAL_HOLDERS = ("data", "items", "results", "records", "entries", "values", "objects", "rows")
_JSONAPI_SKIPPED = frozenset({"attributes", "relationships", "links", "meta"})
_MAX_VARIANTS = 16


@dataclass(frozen=True, slots=True)
class Records:
    """Where a response keeps its records and the schema variants of one record."""

    path: tuple[str, ...] | None
    variants: tuple[dict[str, Any], ...]


@dataclass(frozen=True, slots=True)
class RecordProperty:
    """One property of a record: the field name, where it sits in the record, its schema."""

    name: str
    path: tuple[str, ...]
    schema: Any


def find_records(resolver: SchemaResolver, schema: Any) -> Records:
    """Where the records sit in a response of *schema* (see the module docstring)."""
    node = resolver.concrete(schema)
    items = _array_items(resolver, node)
    if items is not None:
        return Records(None, items)
    if not _any_object(resolver, node):
        return Records(None, ())
    members = resolver.properties(node)
    data = members.get("data")
    if data is not None:
        held = _held(resolver, data, lone=True)
        if held:
            return Records(("data",), held)
    holders: dict[str, tuple[dict[str, Any], ...]] = {}
    for name, member in members.items():
        if name in _SIDE_MEMBERS:
            continue
        held = _held(resolver, member, lone=False)
        if held:
            holders[name] = held
    if len(holders) > 1:
        usual = next((name for name in _USUAL_HOLDERS if name in holders), None)
        holders = {usual: holders[usual]} if usual is not None else {}
    if len(holders) == 1:
        ((name, held),) = holders.items()
        return Records((name,), held)
    return Records(None, tuple(v for v in variants(resolver, node) if is_object_like(v)))


def records_at(resolver: SchemaResolver, schema: Any, path: Sequence[str]) -> Records:
    """The records at an explicit *path*; their schema as far as *schema* says (else none)."""
    node: Any = schema
    for key in path:
        merged: dict[str, Any] = {}
        for variant in variants(resolver, resolver.concrete(node)):
            for name, member in resolver.properties(variant).items():
                merged.setdefault(name, member)
        if key not in merged:
            return Records(tuple(path), ())
        node = merged[key]
    return Records(tuple(path), _held(resolver, node, lone=True))


def record_properties(resolver: SchemaResolver, records: Records) -> list[RecordProperty]:
    """The properties of one record, the union over its variants, JSON:API attributes lifted."""
    found: dict[str, RecordProperty] = {}
    for variant in records.variants:
        members = resolver.properties(variant)
        attributes = members.get("attributes")
        jsonapi = "type" in members and attributes is not None and _any_object(resolver, attributes)
        for name, member in members.items():
            if not (jsonapi and name in _JSONAPI_SKIPPED):
                found.setdefault(name, RecordProperty(name, (name,), member))
        if not jsonapi:
            continue
        for attribute_variant in variants(resolver, resolver.concrete(attributes)):
            for name, member in resolver.properties(attribute_variant).items():
                top = found.get(name)
                field = name if top is None or top.path[0] == "attributes" else f"attributes_{name}"
                found.setdefault(field, RecordProperty(field, ("attributes", name), member))
    return list(found.values())


def variants(resolver: SchemaResolver, node: dict[str, Any], depth: int = 0) -> list[dict[str, Any]]:
    """The alternatives of *node*: its non-null ``anyOf``/``oneOf`` options (flattened), or itself."""
    options = node.get("anyOf") or node.get("oneOf")
    if not isinstance(options, list) or depth > 4:
        return [node]
    out: list[dict[str, Any]] = []
    for option in options:
        concrete = resolver.concrete(option)
        if concrete and not _is_null_type(concrete):
            out.extend(variants(resolver, concrete, depth + 1))
    return out[:_MAX_VARIANTS] or [node]


def _held(resolver: SchemaResolver, member: Any, *, lone: bool) -> tuple[dict[str, Any], ...]:
    """The record variants *member* holds: its array items, or itself when *lone* and an object."""
    node = resolver.concrete(member)
    items = _array_items(resolver, node)
    if items is not None:
        return items
    if lone:
        return tuple(v for v in variants(resolver, node) if is_object_like(v))
    return ()


def _array_items(resolver: SchemaResolver, node: dict[str, Any]) -> tuple[dict[str, Any], ...] | None:
    """The object variants of the items when every alternative of *node* is an array, else None.

    An array of scalars has no records (an empty tuple).
    """
    alternatives = variants(resolver, node)
    if not all(_is_array(resolver, v) for v in alternatives):
        return None
    items: list[dict[str, Any]] = []
    for alternative in alternatives:
        for part in resolver.all_of(alternative):
            if "items" in part:
                concrete = resolver.concrete(part["items"])
                items.extend(v for v in variants(resolver, concrete) if is_object_like(v))
    return tuple(items)


def _is_array(resolver: SchemaResolver, node: dict[str, Any]) -> bool:
    return any("array" in types_of(part) or "items" in part for part in resolver.all_of(node))


def _any_object(resolver: SchemaResolver, member: Any) -> bool:
    return any(is_object_like(v) for v in variants(resolver, resolver.concrete(member)))


def _is_null_type(node: dict[str, Any]) -> bool:
    return node.get("type") == "null" or node.get("enum") == [None]
