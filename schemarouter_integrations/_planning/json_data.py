"""Arguments as JSON data: the check every request and call passes, and its fast path.

:func:`json_arguments` is the validator of ``PlanRequest.arguments`` and
``ToolCall.arguments``. :func:`request_fields` is what a :class:`~.models.PlanRequest` built
from plain values holds, without pydantic: the values a model or an application passes are
nearly always strings, numbers and short lists, whose validity is plain from their types. It
gives ``None`` for anything it cannot prove valid (a subclass, a tuple in the arguments, NaN,
a lone surrogate, an unknown option...), and the request is then validated in full, which
reports the problem as before.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Final

from pydantic import JsonValue

from .._contracts.caching import CachePolicy
from .._contracts.fingerprint import canonical_json
from .._contracts.interning import shared_fields_set
from .._contracts.policies import HedgePolicy

__all__ = ["Arguments", "json_arguments", "plain_data", "request_fields"]

Arguments = dict[str, JsonValue]
"""Canonical arguments: JSON data only (no sets, bytes, dates, tuples, NaN or lone surrogates)."""

MAX_QUERY_CHARS: Final = 65_536
"""The longest question read (64 K characters); a longer one is refused before planning."""


def json_arguments(value: Arguments) -> Arguments:
    """Refuse what JSON cannot carry faithfully, so every route sees the same arguments."""
    empty = [k for k in value if not k]
    if empty:
        raise ValueError("argument names must be non-empty strings")
    for name, argument in value.items():
        try:
            canonical_json(argument).encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError(f"argument {name!r} is not JSON data: a string holds a lone surrogate") from None
        except ValueError as exc:
            raise ValueError(f"argument {name!r} is not JSON data: {exc}") from None
    return value


_INT_BOUND: Final = 1 << 64
"""Integers this small are JSON data for certain (huge ones may exceed Python's digit limit)."""
_MAX_DEPTH: Final = 16
_NOT_PLAIN: Final[Any] = object()
_SCOPES: Final = frozenset({"disabled", "same_provider", "cross_provider"})
_DEFAULTS: Final[dict[str, Any]] = {  # in the order of PlanRequest's fields
    "query": None,
    "arguments": None,  # a new dict each time
    "preferred_tools": None,  # a new list each time
    "fields": None,
    "fallback_scope": "disabled",
    "max_fallbacks": 3,
    "hedge": None,
    "cache": None,
    "max_records": 200,
}


def _encodes(text: str) -> bool:
    """*text* holds no lone surrogate (so its JSON encodes as UTF-8)."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _plain(value: Any, depth: int = 0) -> Any:
    """*value* as validation would return it (containers copied) when it is JSON data for
    certain by its exact type, else :data:`_NOT_PLAIN`."""
    kind = type(value)
    if kind is str:
        return value if _encodes(value) else _NOT_PLAIN
    if kind is int:
        return value if -_INT_BOUND < value < _INT_BOUND else _NOT_PLAIN
    if kind is float:
        return value if math.isfinite(value) else _NOT_PLAIN
    if kind is bool or value is None:
        return value
    if depth >= _MAX_DEPTH:
        return _NOT_PLAIN
    if kind is list:
        items = [_plain(item, depth + 1) for item in value]
        return _NOT_PLAIN if any(item is _NOT_PLAIN for item in items) else items
    if kind is dict:
        return _plain_mapping(value, depth + 1)
    return _NOT_PLAIN


def _plain_mapping(value: Mapping[Any, Any], depth: int = 0) -> Any:
    """A dict of plain values, copied (keys below the top are written as JSON too)."""
    out: dict[str, Any] = {}
    for key, item in value.items():
        if type(key) is not str or (depth and not _encodes(key)):
            return _NOT_PLAIN
        if type(item) is str and item.isascii():  # the common case, inline
            out[key] = item
            continue
        plain = _plain(item, depth)
        if plain is _NOT_PLAIN:
            return _NOT_PLAIN
        out[key] = plain
    return out


def plain_data(value: Mapping[str, Any]) -> dict[str, Any] | None:
    """A copy of *value* (containers copied at every depth) when it is JSON data for certain
    by the exact types of its keys and values, else ``None``."""
    plain = _plain_mapping(value)
    return None if plain is _NOT_PLAIN else plain


def _names(value: Any) -> list[str] | None:
    """A list or tuple of exact strings as a new list, else ``None``."""
    kind = type(value)
    if (kind is list or kind is tuple) and all(type(item) is str for item in value):
        return list(value)
    return None


def request_fields(query: Any, options: Mapping[str, Any]) -> tuple[dict[str, Any], set[str]] | None:
    """The fields (and the set of given names) that validating ``PlanRequest(query,
    **options)`` would give, when every value is valid for certain by its exact type; else
    ``None`` (then validate in full)."""
    if type(query) is not str or len(query) > MAX_QUERY_CHARS:
        return None  # validation says what is wrong
    fields = dict(_DEFAULTS)
    fields["query"] = query
    for name, value in options.items():
        if name == "arguments":
            if type(value) is not dict:
                return None
            plain = _plain_mapping(value)
            if plain is _NOT_PLAIN or "" in plain:
                return None
            value = plain
        elif name == "preferred_tools":
            value = _names(value)
            if value is None:
                return None
        elif name == "fields":
            if value is not None and (value := _names(value)) is None:
                return None
        elif name == "fallback_scope":
            if type(value) is not str or value not in _SCOPES:
                return None
        elif name == "max_fallbacks":
            if type(value) is not int or not 0 <= value <= 8:
                return None
        elif name == "hedge":
            if value is not None and type(value) is not HedgePolicy:
                return None
        elif name == "cache":
            if value is not None and type(value) is not CachePolicy:
                return None
        elif name == "max_records":
            if type(value) is not int or value < 1:
                return None
        else:
            return None  # unknown: validation names it
        fields[name] = value
    if fields["arguments"] is None:
        fields["arguments"] = {}
    if fields["preferred_tools"] is None:
        fields["preferred_tools"] = []
    given = tuple(options)
    names = _GIVEN.get(given)
    if names is None:
        names = shared_fields_set(("query", *given))
        if len(_GIVEN) < _MAX_GIVEN:  # a handful: the option names a caller passes
            _GIVEN[given] = names
    return fields, names


_GIVEN: dict[tuple[str, ...], set[str]] = {}
_MAX_GIVEN: Final = 256
