"""A Python annotation for a JSON Schema: how the model-facing arguments are typed."""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable
from typing import Annotated, Any, Literal

from pydantic import Field

__all__ = ["python_type"]

_SCALARS: dict[str, Any] = {
    "string": str,
    "integer": int,
    "number": float,
    "boolean": bool,
    "null": type(None),
}
_CONSTRAINTS = {
    "minimum": "ge",
    "maximum": "le",
    "exclusiveMinimum": "gt",
    "exclusiveMaximum": "lt",
    "multipleOf": "multiple_of",
    "minLength": "min_length",
    "maxLength": "max_length",
    "minItems": "min_length",
    "maxItems": "max_length",
}
"""JSON Schema keywords carried into the pydantic type (they survive LangChain's subset models)."""


def python_type(schema: Any) -> Any:
    """A Python annotation for a JSON Schema (best effort; ``Any`` when unsure).

    Numeric, length and item-count bounds become pydantic constraints, so the model sees
    them in the schema and a value out of bounds is rejected before any route runs.
    """
    if not isinstance(schema, dict):
        return Any
    base = _base_type(schema)
    constraints: dict[str, Any] = {
        _CONSTRAINTS[key]: value
        for key, value in schema.items()
        if key in _CONSTRAINTS and isinstance(value, int | float) and not isinstance(value, bool)
    }
    return Annotated[base, Field(**constraints)] if constraints and base is not Any else base


def _base_type(schema: dict[str, Any]) -> Any:
    if "const" in schema and _is_scalar(schema["const"]):
        return Literal[schema["const"]]
    enum = schema.get("enum")
    if isinstance(enum, list) and enum and all(_is_scalar(v) for v in enum):
        return Literal[tuple(dict.fromkeys(enum))]
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        if isinstance(options, list) and options:
            return _union(python_type(option) for option in options)
    kind = schema.get("type")
    if isinstance(kind, list) and kind:
        return _union(python_type({**schema, "type": k}) for k in kind)
    if kind == "array":
        return list[python_type(schema.get("items", {}))]  # type: ignore[misc]
    if kind == "object":
        return dict[str, Any]
    if isinstance(kind, str) and kind in _SCALARS:
        return _SCALARS[kind]
    return Any


def _is_scalar(value: Any) -> bool:
    return isinstance(value, str | int | float | bool) or value is None


def _union(types: Iterable[Any]) -> Any:
    distinct = list(dict.fromkeys(types))
    if Any in distinct:
        return Any
    return functools.reduce(operator.or_, distinct)
