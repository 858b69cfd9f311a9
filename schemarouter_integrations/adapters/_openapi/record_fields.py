"""The fields of one record: its own properties (JSON:API attributes lifted) and the members
of its objects one level down, read once per record schema of a document (see
:func:`record_properties` and :func:`nested_properties`)."""

from __future__ import annotations

from collections import Counter
from typing import Any
from weakref import WeakKeyDictionary

from .records import (
    _IDENTIFIERS,
    _JSONAPI_SKIPPED,
    MAX_NESTED_FIELDS,
    VALUE_MEMBERS,
    WRAPPER_VALUES,
    RecordProperty,
    Records,
    _any_object,
    name_words,
)
from .schema import SchemaResolver
from .variants import holds_objects, is_array, opens, variants

__all__ = ["nested_properties", "record_properties"]


def record_properties(resolver: SchemaResolver, records: Records) -> list[RecordProperty]:
    """The properties of one record, the union over its variants, JSON:API attributes lifted;
    read once per record schema of a document (its operations often share one)."""
    read = _READ.setdefault(resolver, {})
    key = tuple(map(id, records.variants))  # the value keeps the variants: no id is reused
    if key not in read:
        read[key] = (records.variants, _record_properties(resolver, records))
    return list(read[key][1])


_READ: WeakKeyDictionary[SchemaResolver, dict[tuple[int, ...], tuple[Any, list[RecordProperty]]]]
_READ = WeakKeyDictionary()


def _record_properties(resolver: SchemaResolver, records: Records) -> list[RecordProperty]:
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
    return [*found.values(), *nested_properties(resolver, list(found.values()))]


def nested_properties(resolver: SchemaResolver, top: list[RecordProperty]) -> list[RecordProperty]:
    """The fields inside a record's objects, one level down: ``gene.chromosomes`` at
    ``["gene", "chromosomes"]``, its leaf name its semantic id when no other field of the
    record has that name and the leaf means something on its own: in a wrapper (below) any
    leaf, in a value object a leaf of two words or more (``symmetry.crystal_system`` is
    ``crystal_system``; ``symmetry.number`` stays ``symmetry.number``, a number of nothing
    alone). At
    most :data:`MAX_NESTED_FIELDS` per record, in document order; lists are values, never
    opened, nor is an object that may come as a plain value instead (an expandable id).

    A record that keeps its data in its objects opens every one: at most
    :data:`WRAPPER_VALUES` plain values of its own (NCBI Datasets' gene report ``{gene: {...},
    query: [...]}``). Any other record opens its *value objects*, those with no identifying
    member (MP's ``symmetry`` with ``crystal_system``, ``symbol``, ``number``): they describe
    the record itself. An object with an identifying member (``id``, ``*_id``, ``name``,
    ``key``, ...: an issue's ``user``, a charge's ``customer``) points at another resource, and
    its members stay inside their field: named as fields they would answer questions about
    the resource they only point at."""
    objects = [p for p in top if opens(resolver, p.schema)]
    opened = {id(p) for p in objects}
    plain = [p for p in top if id(p) not in opened and not is_array(resolver, resolver.concrete(p.schema))]
    wrapper = len(plain) <= WRAPPER_VALUES
    found: list[RecordProperty] = []
    for parent in objects:
        if not (wrapper or _is_value(resolver, parent.schema)):
            continue
        for variant in variants(resolver, resolver.concrete(parent.schema)):
            for name, member in resolver.properties(variant).items():
                if name and len(found) < MAX_NESTED_FIELDS:
                    found.append(RecordProperty(f"{parent.name}.{name}", (*parent.path, name), member))
    names = {p.name for p in top} | {p.name for p in found}
    leaves = Counter(p.path[-1] for p in found)
    unique: dict[str, RecordProperty] = {}
    for prop in found:
        leaf = prop.path[-1]
        alone = wrapper or len(name_words(leaf)) > 1
        meaning = leaf if alone and leaves[leaf] == 1 and leaf not in names else None
        unique.setdefault(prop.name, RecordProperty(prop.name, prop.path, prop.schema, meaning))
    return list(unique.values())


def _is_value(resolver: SchemaResolver, schema: Any) -> bool:
    """Whether an object is a plain value of its record rather than a resource it points at or
    a tree or a catalogue of its own: at most :data:`VALUE_MEMBERS` members, none of which
    identifies a resource (``id``, ``*_id``, ``name``, ``key``, ...) or holds objects (an object,
    a list of objects)."""
    options = variants(resolver, resolver.concrete(schema))
    if len({name for variant in options for name in resolver.properties(variant)}) > VALUE_MEMBERS:
        return False
    for variant in options:
        for name, member in resolver.properties(variant).items():
            words = name_words(name)
            if " ".join(words) in _IDENTIFIERS or (words and words[-1] in _IDENTIFIERS):
                return False
            if holds_objects(resolver, member):
                return False
    return True
