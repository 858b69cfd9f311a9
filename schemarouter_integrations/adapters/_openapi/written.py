"""OpenAPI schemas as their publishers write them, read as JSON Schema 2020-12.

Numbers and booleans written as strings (``maximum: "50"``, ``nullable: "true"``) read as what
they mean; 3.0's ``nullable`` and boolean exclusive bounds become 2020-12 types and numbers;
OpenAPI-only keywords are dropped. Used by :mod:`.schema` on every node it resolves.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

_OPENAPI_ONLY = frozenset({"nullable", "discriminator", "xml", "externalDocs", "example"})
NUMBER_KEYWORDS = (
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength",
    "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains", "maxContains",
)  # fmt: skip
"""Schema keywords whose value is a number (3.0's boolean exclusive bounds are flags too)."""
FLAG_KEYWORDS = (
    "nullable", "uniqueItems", "readOnly", "writeOnly", "deprecated", "additionalProperties",
    "unevaluatedProperties", "unevaluatedItems",
)  # fmt: skip
"""Keywords that take a boolean (the last three a schema or a boolean)."""
_WRITTEN = frozenset((*NUMBER_KEYWORDS, *FLAG_KEYWORDS))
"""Keywords a publisher may write as a string (a schema has a few keys: those are looked up)."""
_INTEGER = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?[0-9]+[eE][+-]?[0-9]+")


def normalise_schema(schema: dict[str, Any], version: str) -> dict[str, Any]:
    """Turn one OpenAPI schema object into JSON Schema 2020-12 (children already done).

    Numbers and booleans written as strings (``maximum: "50"``, ``nullable: "true"``) read as
    what they mean (:func:`as_written`). 3.0: ``nullable: true`` becomes a ``"null"`` type (or
    an ``anyOf`` with null), and the boolean ``exclusiveMinimum``/``exclusiveMaximum`` become
    numbers. OpenAPI-only keywords (``discriminator``, ``xml``, ...) are dropped.
    """
    schema = as_written(schema)
    out = {k: v for k, v in schema.items() if k not in _OPENAPI_ONLY}
    if version != "3.0":
        return out
    for bound, exclusive in (("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")):
        flag = out.get(exclusive)
        if isinstance(flag, bool):
            del out[exclusive]
            if flag and bound in out:
                out[exclusive] = out.pop(bound)
    if schema.get("nullable") is True:
        kind = out.get("type")
        if isinstance(kind, str):
            out["type"] = [kind, "null"]
            if isinstance(out.get("enum"), list) and None not in out["enum"]:
                out["enum"] = [*out["enum"], None]
        elif kind is None:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


def as_written(schema: dict[str, Any]) -> dict[str, Any]:
    """*schema* with numbers and booleans its publisher wrote as strings read as such.

    A number keyword (``maximum: "50"``) whose text is not a number, or a flag
    (``nullable: "yes"``) that is neither true nor false, is left out: it cannot constrain
    anything, and the server checks what it meant all the same.
    """
    if not any(isinstance(schema[k], str) for k in _WRITTEN.intersection(schema)):
        return schema
    out = dict(schema)
    for key in NUMBER_KEYWORDS:
        if isinstance(out.get(key), str):
            number: int | float | bool | None = number_of(out[key])
            if number is None and key.startswith("exclusive"):
                number = flag_of(out[key])  # 3.0 writes exclusive bounds as flags
            if number is None:
                del out[key]
            else:
                out[key] = number
    read_flags(out, FLAG_KEYWORDS)
    return out


def read_flags(node: dict[str, Any], keys: Iterable[str]) -> None:
    """Each of *keys* that *node* writes as a string (``"true"``) read as a boolean, in place;
    one that is neither is left out."""
    for key in keys:
        if isinstance(node.get(key), str):
            flag = flag_of(node[key])
            if flag is None:
                del node[key]
            else:
                node[key] = flag


def number_of(text: str) -> int | float | None:
    """The number a string writes (``"50"`` -> 50, ``"0.5"`` -> 0.5), or None."""
    written = text.strip()
    if _INTEGER.fullmatch(written):
        return int(written)
    if _DECIMAL.fullmatch(written):
        return float(written)
    return None


def flag_of(value: Any) -> bool | None:
    """A boolean as written: ``True``/``False`` or ``"true"``/``"false"`` (any case), else None."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return None
