"""Scalar arguments read as the type their route declares, when that loses nothing.

A model passes ``"2021"`` where a route takes an integer, or ``2021`` where it takes text;
:func:`coerced_arguments` turns such a value into the declared type before the arguments are
checked and sent, so the route is not refused for a spelling. Only what converts back to the
same text is converted: ``"2021"`` -> 2021, ``"0.5"`` -> 0.5, ``"true"`` -> True, 2021 ->
``"2021"``; ``"2021.0"`` for an integer, ``"01"``, ``"yes"`` or a float for text stay as they
are (and are refused by the schema as before). Items of a list are read by the list's item
type. A value the schema already accepts in its own type is never changed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["coerced_arguments"]

_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)")
_SCALARS = frozenset({"string", "integer", "number", "boolean"})


def coerced_arguments(schema: Mapping[str, Any], arguments: Mapping[str, Any]) -> dict[str, Any]:
    """*arguments* with each scalar (or list of scalars) read as its property's declared type."""
    properties = schema.get("properties")
    if not isinstance(properties, Mapping):
        return dict(arguments)
    out: dict[str, Any] = {}
    for name, value in arguments.items():
        declared = properties.get(name)
        out[name] = _coerced(declared, value) if isinstance(declared, Mapping) else value
    return out


def _coerced(schema: Mapping[str, Any], value: Any) -> Any:
    kinds, items = _declared(schema)
    if isinstance(value, list):
        if "array" not in kinds or items is None:
            return value
        item_kinds, _ = _declared(items)
        return [_scalar(item_kinds, v) for v in value]
    return _scalar(kinds, value)


def _declared(schema: Mapping[str, Any]) -> tuple[set[str], Mapping[str, Any] | None]:
    """The JSON types *schema* accepts (through ``anyOf``/``oneOf``) and its array items."""
    kinds: set[str] = set()
    items: Mapping[str, Any] | None = None
    pending = [schema]
    while pending:
        node = pending.pop()
        kind = node.get("type")
        kinds.update([kind] if isinstance(kind, str) else kind if isinstance(kind, list) else [])
        if isinstance(node.get("items"), Mapping):
            items = items or node["items"]
        for key in ("anyOf", "oneOf"):
            options = node.get(key)
            if isinstance(options, list):
                pending.extend(o for o in options if isinstance(o, Mapping))
    return kinds, items


def _scalar(kinds: set[str], value: Any) -> Any:
    if not kinds & _SCALARS or _accepted(kinds, value):
        return value
    if isinstance(value, str):
        text = value.strip()
        if "integer" in kinds and _INTEGER.fullmatch(text):
            return int(text)
        if "number" in kinds:
            number = _number(text)
            if number is not None:
                return number
        if "boolean" in kinds and text in ("true", "false"):
            return text == "true"
        return value
    if "string" in kinds and isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return value


def _accepted(kinds: set[str], value: Any) -> bool:
    if isinstance(value, bool):
        return "boolean" in kinds
    if isinstance(value, int):
        return bool(kinds & {"integer", "number"})
    if isinstance(value, float):
        return "number" in kinds or ("integer" in kinds and value.is_integer())
    if isinstance(value, str):
        return "string" in kinds
    return True


def _number(text: str) -> int | float | None:
    if _INTEGER.fullmatch(text):
        return int(text)
    try:
        number = float(text)
    except ValueError:
        return None
    return number if math.isfinite(number) and repr(number) == text else None
