"""Where a response keeps its records, and the properties of one record.

Real documents wrap records in many ways; :func:`find_records` reads the success response
schema through ``$ref`` chains, ``allOf`` and ``anyOf``/``oneOf`` (nullable or not). The rule,
first match wins:

1. a bare array (also ``anyOf`` of several arrays): the records are its items;
2. an object with a ``data`` member holding objects (a list, or a lone object that is one
   record): the records are at ``data`` (the envelope of JSON:API, OPTIMADE, Stripe, ...);
3. an array of objects named like the operation's resource: the records are that array (in
   any object, an envelope or a resource). The resource names are the path's
   last literal segment and the operationId; an array's name matches when its words,
   singular or plural, are a run of the words of one of them (``materials`` for
   ``/materials`` or ``listMaterials``, ``workflow_runs`` for ``listWorkflowRunsForRepo``),
   even a side name below (``listMessages`` answering ``{messages, nextPageToken}``, the
   code-owner errors of ``/codeowners/errors``). Among several: the longest match, then the
   most properties, then the first in the document;
4. an object that is not an envelope (an envelope's members besides its arrays are at most
   :data:`ENVELOPE_MEMBERS` and none of them an identifier such as ``id``, ``name``, ``sha``:
   counts, cursors, a query echo) and has more than the id it answers for besides its arrays
   (``{id, logos: [...]}`` is an envelope all the same) is one record, a resource with lists inside (Spotify's
   ``/me`` with its ``images``, a track with its ``artists``), unless one array has a usual
   holder name (``{id, results: [...]}``: the records are ``results``);
5. in an envelope, side arrays never hold the records: a member whose name has one of the words
   ``messages``, ``errors``, ``warnings``, ``links``, ``included``, ``meta``, ``metadata``,
   ``notices``, ``diagnostics``, ``debug``, ``jsonapi`` (singular or plural, in any case or
   separator: ``validationErrors``, ``_links``). Of the other arrays of objects, one alone
   holds the records (``{total_count, workflow_runs}``, ``{materials, warnings}``); among
   several, a usual holder name wins (``items``, ``results``, ``records``, ...), else, in an
   envelope that carries a side member (it says it wraps a response), the array of objects
   with the most properties, the first in the document on a tie. When no array describes
   objects, an array under a usual holder name whose items are left undescribed
   (``items: {}``) holds the records of an envelope that carries a side member (OpenAQ's
   ``{meta, results: [...]}``): they are read as they come, no fields declared;
6. any other object is one record: a resource with arrays inside (a commit with its
   ``files`` and ``parents``, a team with ``members`` and ``projects``) stays one record.

``records_path=`` overrides all of this (:func:`records_at`). A record given as
``anyOf``/``oneOf`` of several object variants has the union of their properties (the first
variant that names a property describes it). A JSON:API resource (``{id, type, attributes}``)
is read as the invoker returns it: ``id`` and ``type`` at the top, each attribute at
``["attributes", name]`` (see :func:`record_properties`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from ..._registry.words import word_forms
from ..._text import normalise
from .schema import SchemaResolver, is_object_like, types_of
from .variants import is_array, variants

_SIDE_WORDS = frozenset(
    {
        "message",
        "error",
        "warning",
        "link",
        "included",
        "meta",
        "metadata",
        "notice",
        "diagnostic",
        "debug",
        "jsonapi",
    }
)
"""Words of envelope members that never hold the records (unless they name the resource)."""
_USUAL_HOLDERS = ("data", "items", "results", "records", "entries", "values", "objects", "rows")
_IDENTIFIERS = frozenset({"id", "uuid", "guid", "identifier", "name", "title", "sha", "key", "slug"})
"""Member names that identify a resource: an object that has one is a record, not an envelope."""
ENVELOPE_MEMBERS = 8
"""The most members besides its arrays that an envelope has (counts, cursors, a query echo)."""
_JSONAPI_SKIPPED = frozenset({"attributes", "relationships", "links", "meta"})
MAX_NESTED_FIELDS = 64
VALUE_MEMBERS = 8
"""The most members of a value object (see :func:`nested_properties`): a value made of a few
parts (a symmetry, an address, the averages of a modulus), not a catalogue (an account's
capabilities, one entry per payment method)."""
WRAPPER_VALUES = 2
"""The most plain values of its own a record whose objects' members are fields may have."""
"""The most fields one record gives from inside its objects (see :func:`nested_properties`)."""
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_WORD = re.compile(r"[^\W_]+")
_PARAMETER = re.compile(r"^\{.*\}$|^:")


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
    meaning: str | None = None
    """The leaf name of a nested field (``chromosomes`` for ``gene.chromosomes``), when no
    other field of the record has it: the field's semantic id, so it means what a field of
    that name means (asked for as ``chromosomes``, served where another record has it whole)."""


@dataclass(frozen=True)
class _Array:
    """One array member of a response object."""

    name: str
    position: int
    items: tuple[dict[str, Any], ...]
    resolver: SchemaResolver

    @cached_property
    def width(self) -> int:
        """How many distinct properties its object items have (read only when ranking)."""
        return len({key for item in self.items for key in self.resolver.properties(item)})


@lru_cache(maxsize=4096)
def resource_names(path: str, operation_id: str | None) -> tuple[tuple[str, ...], ...]:
    """The word runs that name an operation's resource: its path's last literal segment and
    its operationId (``/repos/{owner}/{repo}/actions/runs``, ``listWorkflowRunsForRepo`` ->
    ``(runs,)``, ``(list, workflow, runs, for, repo)``)."""
    literal = [s for s in path.split("/") if s and not _PARAMETER.search(s)]
    names = [literal[-1]] if literal else []
    if operation_id:
        names.append(operation_id)
    return tuple(w for w in (name_words(n) for n in names) if w)


@lru_cache(maxsize=16384)
def name_words(name: str) -> tuple[str, ...]:
    """The words of a member or operation name: camelCase, snake_case and kebab-case split."""
    return tuple(_WORD.findall(normalise(_CAMEL.sub(" ", name))))


def find_records(
    resolver: SchemaResolver, schema: Any, path: str = "", operation_id: str | None = None
) -> Records:
    """Where the records sit in a response of *schema* (see the module docstring) of the
    operation at *path* named *operation_id* (the words that name its resource)."""
    node = _object_branch(resolver, resolver.concrete(schema))
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
    arrays = _arrays(resolver, members)
    if arrays:
        named = _resource_array(arrays, resource_names(path, operation_id))
        if named is not None:
            return Records((named.name,), named.items)
    if _is_resource(members, arrays):  # a resource with lists inside: one record
        listed = [a for a in arrays if a.items and a.name in _USUAL_HOLDERS]
        if len(listed) == 1:  # {id, results: [...]}: the results of the resource asked about
            return Records((listed[0].name,), listed[0].items)
        return Records(None, tuple(v for v in variants(resolver, node) if is_object_like(v)))
    holders = [a for a in arrays if a.items and not _is_side(a.name)]
    if len(holders) > 1:
        usual = next((a for name in _USUAL_HOLDERS for a in holders if a.name == name), None)
        wraps = any(_is_side(name) for name in members)
        widest = max(holders, key=lambda a: (a.width, -a.position)) if wraps else None
        holders = [usual] if usual is not None else [widest] if widest is not None else []
    if len(holders) == 1:
        return Records((holders[0].name,), holders[0].items)
    if not holders and any(_is_side(name) for name in members):
        free = [a for a in arrays if a.name in _USUAL_HOLDERS and _free_items(resolver, members[a.name])]
        if len(free) == 1:  # {meta, results: [any]}: the records are there, undescribed
            return Records((free[0].name,), ())
    return Records(None, tuple(v for v in variants(resolver, node) if is_object_like(v)))


def _free_items(resolver: SchemaResolver, member: Any) -> bool:
    """Whether an array's items are left undescribed (no ``items``, or ``items: {}``)."""
    for part in resolver.all_of(resolver.concrete(member)):
        items = part.get("items")
        if items is None:
            continue
        concrete = resolver.concrete(items) if isinstance(items, dict) else items
        if (
            not isinstance(concrete, dict)
            or types_of(concrete)
            or any(key in concrete for key in ("properties", "allOf", "anyOf", "oneOf", "enum", "const"))
        ):
            return False
    return True


def _object_branch(resolver: SchemaResolver, node: dict[str, Any]) -> dict[str, Any]:
    """The one object alternative of ``anyOf``/``oneOf`` an object or plain values (a model or
    a message string), read like that object; any other *node* as it is."""
    options = variants(resolver, node)
    objects = [v for v in options if is_object_like(v) and not is_array(resolver, v)]
    if len(options) < 2 or len(objects) != 1:
        return node
    scalars = [types_of(v) for v in options if v is not objects[0]]
    plain = all(kinds and kinds <= {"string", "number", "integer", "boolean", "null"} for kinds in scalars)
    return objects[0] if plain else node


def _arrays(resolver: SchemaResolver, members: dict[str, Any]) -> list[_Array]:
    out: list[_Array] = []
    for position, (name, member) in enumerate(members.items()):
        items = _array_items(resolver, resolver.concrete(member))
        if items is not None:
            out.append(_Array(name, position, items, resolver))
    return out


def _is_envelope(members: dict[str, Any], arrays: list[_Array]) -> bool:
    """Whether an object wraps its arrays (few other members, none identifying a resource)."""
    others = set(members) - {a.name for a in arrays}
    return len(others) <= ENVELOPE_MEMBERS and not any(
        " ".join(name_words(name)) in _IDENTIFIERS for name in others
    )


def _is_resource(members: dict[str, Any], arrays: list[_Array]) -> bool:
    """Whether an object describes a resource: not an envelope, and more than the id it
    answers for besides its arrays (``{id, logos: [...]}`` echoes the id it was asked for)."""
    return not _is_envelope(members, arrays) and len(set(members) - {a.name for a in arrays}) > 1


def _resource_array(arrays: Iterable[_Array], resource: Sequence[Sequence[str]]) -> _Array | None:
    """The array named like the operation's resource, best first (see the module docstring)."""
    best: tuple[int, int, int] | None = None
    chosen: _Array | None = None
    for array in arrays:
        words = name_words(array.name)
        match = max((len(words) for run in resource if _is_run_of(words, run)), default=0)
        if not match or not array.items:
            continue
        rank = (match, array.width, -array.position)
        if best is None or rank > best:
            best, chosen = rank, array
    return chosen


def _is_run_of(words: Sequence[str], run: Sequence[str]) -> bool:
    """Whether *words* (each singular or plural) appear one after another in *run*."""
    if not words or len(words) > len(run):
        return False
    return any(
        all(_same_word(word, run[start + i]) for i, word in enumerate(words))
        for start in range(len(run) - len(words) + 1)
    )


def _same_word(a: str, b: str) -> bool:
    return a == b or not set(word_forms(a)).isdisjoint(word_forms(b))


def _is_side(name: str) -> bool:
    return any(not _SIDE_WORDS.isdisjoint(word_forms(word)) for word in name_words(name))


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
    if not all(is_array(resolver, v) for v in alternatives):
        return None
    items: list[dict[str, Any]] = []
    for alternative in alternatives:
        for part in resolver.all_of(alternative):
            if "items" in part:
                concrete = resolver.concrete(part["items"])
                items.extend(v for v in variants(resolver, concrete) if is_object_like(v))
    return tuple(items)


def _any_object(resolver: SchemaResolver, member: Any) -> bool:
    return any(is_object_like(v) for v in variants(resolver, resolver.concrete(member)))
