"""Interned parts of contracts: routes with equal contracts share one copy of each part.

A registry of many routes holds many equal pieces: the same JSON schema (every function of
one signature, every operation taking the same parameters), the same retry policy, the same
set of given field names. Each contract keeps a reference to one shared, read-only copy
instead of its own:

- JSON schemas (``input_schema``, ``output_schema``) are interned by fingerprint as
  :class:`FrozenDict` / :class:`FrozenList` trees: ``dict`` and ``list`` subclasses (so every
  reader, ``json``, ``jsonschema`` and pydantic's serializer, sees plain JSON data) that
  refuse changes in place, since a change through one route would change every route that
  shares the schema. ``copy.copy``/``copy.deepcopy`` give plain, mutable copies.
- Small policy contracts (``RetryPolicy``) are interned by value: they are immutable.
- The ``model_fields_set`` of every contract is one shared :class:`ReadOnlySet` per distinct
  set of given names.

The tables hold weak references (schemas) or only a handful of distinct values (policies,
field-name sets), so a contract that is no longer registered anywhere leaves nothing behind.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Iterable
from typing import Any, NoReturn, TypeVar

from .._bounded import BoundedCache

__all__ = ["FrozenDict", "FrozenList", "ReadOnlySet", "frozen_json", "interned_schema", "shared_fields_set",
           "shared_schema", "shared_strings", "shared_value", "thawed"]  # fmt: skip

T = TypeVar("T")
_MESSAGE = (
    "this {kind} belongs to an interned contract, shared by every route with an equal one, "
    "and cannot be changed in place; change a copy (copy.deepcopy) and build a new contract"
)


def _refuse(kind: str) -> Any:
    def refuse(self: object, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError(_MESSAGE.format(kind=kind))

    return refuse


class FrozenDict(dict[str, Any]):
    """A read-only ``dict`` of an interned JSON schema (see the module docstring)."""

    __slots__ = ("__weakref__", "_arguments", "_checked")
    _arguments: frozenset[str]
    _checked: str

    __setitem__ = __delitem__ = __ior__ = _refuse("schema")
    clear = pop = popitem = setdefault = update = _refuse("schema")

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        thawed_: dict[str, Any] = thawed(self)
        return thawed_

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))

    def checked_key(self) -> str | None:
        """The fingerprint of this schema when :func:`shared_schema` interned it (after its
        check), else None: such a schema needs no check again."""
        return getattr(self, "_checked", None)

    def argument_names(self) -> frozenset[str]:
        """The names of ``properties`` (an input schema's arguments), computed once."""
        try:
            names: frozenset[str] = self._arguments
        except AttributeError:
            properties = self.get("properties", {})
            names = self._arguments = frozenset(properties) if isinstance(properties, dict) else frozenset()
        return names


class FrozenList(list[Any]):
    """A read-only ``list`` inside an interned JSON schema."""

    __slots__ = ()

    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse("schema")
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse("schema")

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        thawed_: list[Any] = thawed(self)
        return thawed_

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenList, (list(self),))


class ReadOnlySet(set[str]):
    """A shared, read-only ``model_fields_set``."""

    __slots__ = ()

    add = discard = remove = pop = clear = update = _refuse("set of given fields")
    difference_update = intersection_update = symmetric_difference_update = _refuse("set of given fields")
    __ior__ = __iand__ = __isub__ = __ixor__ = _refuse("set of given fields")

    def __copy__(self) -> set[str]:
        return set(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> set[str]:
        return set(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (set, (list(self),))


def frozen_json(value: Any) -> Any:
    """A read-only deep copy of JSON data (dicts and lists frozen, scalars shared)."""
    if type(value) is FrozenDict or type(value) is FrozenList:
        return value  # frozen all the way down already
    if isinstance(value, dict):
        frozen = FrozenDict()
        for key, item in value.items():
            dict.__setitem__(frozen, key, frozen_json(item))
        return frozen
    if isinstance(value, list):
        return FrozenList(frozen_json(item) for item in value)
    if isinstance(value, tuple):
        return tuple(frozen_json(item) for item in value)
    return value


def thawed(value: Any) -> Any:
    """A plain, mutable deep copy of (possibly frozen) JSON data."""
    if isinstance(value, dict):
        return {key: thawed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [thawed(item) for item in value]
    return value


_SCHEMAS: weakref.WeakValueDictionary[str, FrozenDict] = weakref.WeakValueDictionary()


def shared_schema(schema: dict[str, Any], key: str) -> FrozenDict:
    """The interned, read-only copy of *schema*, whose fingerprint is *key*.

    Schemas share a copy only when they are written alike, key order included: the fingerprint
    sorts keys, but the order of ``properties`` is what a model reads in a tool's schema.
    """
    if type(schema) is FrozenDict and schema.checked_key() == key:
        return schema  # interned already (a copy of a contract shares its parts)
    written = json.dumps(schema, ensure_ascii=False, separators=(",", ":"))
    shared = _SCHEMAS.get(written)
    if shared is None:
        shared = _SCHEMAS[written] = frozen_json(schema)
        shared._checked = key  # equal writing implies an equal fingerprint
    return shared


def interned_schema(value: Any) -> bool:
    """Whether *value* is a schema :func:`shared_schema` interned: checked JSON Schema, read-only,
    taken by a contract as it is (no copy, no check again)."""
    return type(value) is FrozenDict and value.checked_key() is not None


_STRINGS: BoundedCache[tuple[str, ...], FrozenList] = BoundedCache(8192)


def shared_strings(values: list[str]) -> list[str]:
    """One read-only list per distinct list of strings (aliases, paths, keywords: most are
    empty or one name, and the same names recur across the fields of many routes)."""
    key = tuple(values)
    shared = _STRINGS.get(key)
    if shared is None:
        shared = _STRINGS.put(key, FrozenList(key))
    return shared


_FIELDS_SETS: dict[frozenset[str], ReadOnlySet] = {}
_MAX_FIELDS_SETS = 4096


def shared_fields_set(names: Iterable[str]) -> set[str]:
    """One shared read-only set per distinct set of given field names (there are few: a
    contract class has a handful of fields)."""
    key = frozenset(names)
    shared = _FIELDS_SETS.get(key)
    if shared is None:
        if len(_FIELDS_SETS) >= _MAX_FIELDS_SETS:  # never reached by real contracts
            return set(key)
        shared = _FIELDS_SETS[key] = ReadOnlySet(key)
    return shared


_VALUES: BoundedCache[tuple[Any, ...], Any] = BoundedCache(1024)


def shared_value(value: T, key: tuple[Any, ...]) -> T:
    """The interned instance equal to the immutable *value* (identified by *key*)."""
    shared = _VALUES.get(key)
    if shared is None:
        return _VALUES.put(key, value)  # type: ignore[no-any-return]
    return shared  # type: ignore[no-any-return]
