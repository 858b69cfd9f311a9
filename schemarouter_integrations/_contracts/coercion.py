"""Arguments read in the form their route declares, when that loses nothing.

A model writes values the way people write them; :func:`coerced_arguments` turns each into
the declared form before the arguments are checked and sent, so a route is not refused for
a spelling. Three rules, each lossless:

* **Scalars by type.** Only what converts back to the same text is converted: ``"2021"`` ->
  2021, ``"0.5"`` -> 0.5, ``"true"`` -> True, 2021 -> ``"2021"``; ``"2021.0"`` for an integer,
  ``"01"``, ``"yes"`` or a float for text stay as they are.
* **One value for a list.** A scalar where the route takes only a list becomes a list of that
  one value (``"BRCA1"`` -> ``["BRCA1"]``), when the list's items take it (after the rule
  above). A string is never split: ``"a,b"`` becomes ``["a,b"]``, one value holding a comma
  (a value may contain commas). Where the route itself joins a list into one text
  (:data:`~.schemas.LIST_SEPARATOR`), that text reaches the server as it was written.
* **One value named twice.** A route that declares two parameters whose names differ only in
  case (``DRUG_ID`` in its path and ``drug_id`` in its query, as some generated documents
  do) gets a value given for one under the other as well, when the other is not given.
* **Enum members by case.** A string outside a closed ``enum`` (every text the schema takes is
  one of its members) becomes the member it equals ignoring case, when exactly one does
  (``"dataverse"`` -> ``"Dataverse"``).

Items of a list are read by the list's item schema. A value the schema already accepts is
never changed; one no rule applies to is left as it is, and the schema refuses it as before.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

__all__ = ["coerced_arguments", "coerced_value", "value_reader"]

_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)")
_SCALARS = frozenset({"string", "integer", "number", "boolean"})


def coerced_arguments(schema: Mapping[str, Any], arguments: Mapping[str, Any]) -> dict[str, Any]:
    """*arguments* with each value read in its property's declared form (see the module text)."""
    properties = schema.get("properties")
    if not isinstance(properties, Mapping):
        return dict(arguments)
    out: dict[str, Any] = {}
    for name, value in arguments.items():
        declared = properties.get(name)
        out[name] = coerced_value(declared, value) if isinstance(declared, Mapping) else value
    for name, twin in _twins(properties, arguments):
        declared = properties[twin]
        out[twin] = (
            coerced_value(declared, arguments[name]) if isinstance(declared, Mapping) else arguments[name]
        )
    return out


def _twins(properties: Mapping[str, Any], arguments: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(given name, its twin): declared names equal but for case, the twin not given."""
    if len(properties) < 2:
        return []
    by_case: dict[str, list[str]] = {}
    for name in properties:
        by_case.setdefault(str(name).casefold(), []).append(name)
    out: list[tuple[str, str]] = []
    for name in arguments:
        spellings = by_case.get(name.casefold(), ())
        if len(spellings) == 2 and name in spellings:
            twin = spellings[0] if spellings[1] == name else spellings[1]
            if twin not in arguments:
                out.append((name, twin))
    return out


def coerced_value(schema: Mapping[str, Any], value: Any) -> Any:
    """*value* read in the form *schema* declares, when that loses nothing (else *value*)."""
    return _coerced(_declared(schema), value)


def value_reader(schema: Mapping[str, Any]) -> Callable[[Any], Any]:
    """``coerced_value(schema, value)`` as a function of *value*, *schema* read once (the
    schema is not read again: for a schema that does not change, as a built model's). A
    value of a type the schema takes as it is comes back at once."""
    shape = _declared(schema)
    coerce = partial(_coerced, shape)
    if "array" in shape.kinds or shape.members or not shape.kinds & _SCALARS:
        return coerce
    ready = frozenset(kind for name in shape.kinds for kind in _READY.get(name, ()))

    def read(value: Any) -> Any:
        return value if type(value) in ready else coerce(value)

    return read


_READY: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
}
"""The Python types each JSON type takes as they are (a float for an integer only when whole:
not listed; ``bool`` is not ``int`` here)."""


def _coerced(shape: _Shape, value: Any) -> Any:
    if isinstance(value, list):
        if "array" not in shape.kinds or shape.items is None:
            return value
        items = _declared(shape.items)
        return [_scalar(items, v) for v in value]
    one = _scalar(shape, value)
    if _is_scalar(value) and "array" in shape.kinds and not _accepted(shape.kinds & _SCALARS, one):
        return _one_item(shape.items, value)
    return one


@dataclass(frozen=True, slots=True)
class _Shape:
    kinds: frozenset[str]
    """The JSON types the schema accepts (through ``anyOf``/``oneOf``)."""
    items: Mapping[str, Any] | None
    """The schema of its array items, if it has one."""
    members: tuple[str, ...]
    """The text members of its enums, when every text it takes is one of them (else empty)."""


def _declared(schema: Mapping[str, Any]) -> _Shape:
    kinds: set[str] = set()
    items: Mapping[str, Any] | None = None
    members: list[str] = []
    open_text = False
    pending = [schema]
    while pending:
        node = pending.pop()
        kind = node.get("type")
        own = [kind] if isinstance(kind, str) else kind if isinstance(kind, list) else []
        kinds.update(k for k in own if isinstance(k, str))
        if isinstance(node.get("items"), Mapping):
            items = items or node["items"]
        enum = node.get("enum")
        if isinstance(enum, list):
            members.extend(m for m in enum if isinstance(m, str))
        elif "string" in own and "const" not in node:
            open_text = True
        for key in ("anyOf", "oneOf"):
            options = node.get(key)
            if isinstance(options, list):
                pending.extend(o for o in options if isinstance(o, Mapping))
    return _Shape(frozenset(kinds), items, () if open_text else tuple(dict.fromkeys(members)))


def _one_item(items: Mapping[str, Any] | None, value: Any) -> Any:
    """``[value]`` (its item read as the items declare) when the items take it, else *value*."""
    if items is None:
        return [value]
    shape = _declared(items)
    item = _scalar(shape, value)
    if shape.kinds and not _accepted(shape.kinds, item):
        return value
    if shape.members and item not in shape.members:
        return value
    return [item]


def _scalar(shape: _Shape, value: Any) -> Any:
    kinds = shape.kinds
    if isinstance(value, str) and shape.members and value not in shape.members:
        folded = value.casefold()
        same = [m for m in shape.members if m.casefold() == folded]
        return same[0] if len(same) == 1 else value
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


def _is_scalar(value: Any) -> bool:
    return isinstance(value, str | int | float | bool)


def _accepted(kinds: frozenset[str], value: Any) -> bool:
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
