"""What the document says about the shape of query parameters: field selection and lists.

**Field selection.** An operation selects its response fields through a query parameter when
one is named :data:`FIELD_SELECTION_NAMES` (in that order of preference), or when its name
speaks of fields (``field``, ``propert``, ``column``, ``attribute``, ``select``) and its
description says that it picks the fields returned ("fields to return", "properties to
include", "fields to project"). It must take a string, or an array sent as one value
(``explode: false``); a boolean such as ``_all_fields`` never qualifies, nor does a required
parameter. The router then sends the selected fields there, joined with ``,``.

**One value for a list.** A query parameter that takes an array (repeated, ``explode``)
accepts one value too, sent as a list of one: a model asked for the drugs of one molecule
passes ``moleculeChemblId="CHEMBL25"``, not ``["CHEMBL25"]``.

**Lists.** A list argument is sent joined to a query parameter that takes one value made of
several: an array with ``style: form, explode: false`` (``,``), ``spaceDelimited`` (`` ``) or
``pipeDelimited`` (``|``); a string whose description says it is comma-separated or
comma-delimited (``,``); or a parameter named by ``add_url(..., list_separators=...)``. The
canonical input schema of such a string parameter accepts a list of its values (strings or
numbers) as well, and
says the separator under :data:`~..._contracts.schemas.LIST_SEPARATOR` so that a plan can tell
which arguments it joins.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..._contracts.schemas import LIST_SEPARATOR
from .._fields import as_dict
from .schema import types_of

__all__ = [
    "FIELD_SELECTION_NAMES",
    "field_selection_parameter",
    "list_schema",
    "list_separator",
    "one_or_many_schema",
]

FIELD_SELECTION_NAMES = ("_fields", "fields", "response_fields", "$select", "select", "_properties")
"""Query parameter names that select the response fields, most specific first."""
_SELECTING_NAME = re.compile(r"field|propert|column|attribute|select", re.IGNORECASE)
_SELECTING_TEXT = re.compile(
    r"\b(?:fields|properties|columns|attributes)\s+(?:to\s+|that\s+are\s+|which\s+are\s+)?"
    r"(?:return|returned|include|included|project|projected|select|selected)\b",
    re.IGNORECASE,
)
_COMMA_LIST = re.compile(r"\bcomma[\s-]*(?:separated|delimited)\b", re.IGNORECASE)
_STYLE_SEPARATORS = {"form": ",", "spaceDelimited": " ", "pipeDelimited": "|"}
_ANNOTATIONS = ("title", "description", "examples")


def field_selection_parameter(parameters: tuple[dict[str, Any], ...], resolve: Any) -> str | None:
    """The name of the query parameter that selects fields, or None (see the module text).

    *resolve* makes a parameter's schema concrete (references followed, nullable removed).
    """
    candidates: dict[str, int] = {}
    for param in parameters:
        name = param.get("name")
        if param.get("in") != "query" or not isinstance(name, str) or param.get("required") is True:
            continue
        schema = as_dict(resolve(param.get("schema", {})))
        if not _takes_one_text(param, schema):
            continue
        if name in FIELD_SELECTION_NAMES:
            candidates[name] = FIELD_SELECTION_NAMES.index(name)
        elif _SELECTING_NAME.search(name) and _SELECTING_TEXT.search(_texts(param, schema)):
            candidates[name] = len(FIELD_SELECTION_NAMES)
    return min(candidates, key=candidates.__getitem__) if candidates else None


def list_separator(
    param: Mapping[str, Any], schema: Mapping[str, Any], named: Mapping[str, str]
) -> str | None:
    """The separator a list argument to query parameter *param* is joined with, if any.

    *schema* is the parameter's concrete schema; *named* the ``list_separators=`` option.
    """
    name = param.get("name")
    if isinstance(name, str) and name in named:
        return named[name]
    style = param.get("style", "form")
    explode = param.get("explode", style == "form")
    kinds = types_of(dict(schema))
    if "array" in kinds:
        return _STYLE_SEPARATORS.get(str(style)) if explode is False else None
    if "string" in kinds and _COMMA_LIST.search(_texts(param, schema)):
        return ","
    return None


def list_schema(schema: dict[str, Any], separator: str) -> dict[str, Any]:
    """*schema* (a parameter's canonical schema) accepting a list of its values as well.

    An array schema only gains the :data:`LIST_SEPARATOR` note; any other becomes ``anyOf``
    the value and a list of values (each value as the schema describes it, without null).
    """
    if "array" in types_of(schema):
        return {**schema, LIST_SEPARATOR: separator}
    notes = {k: schema[k] for k in _ANNOTATIONS if k in schema}
    bare = {k: v for k, v in schema.items() if k not in _ANNOTATIONS}
    return {**notes, "anyOf": [bare, {"type": "array", "items": _item(bare)}], LIST_SEPARATOR: separator}


def one_or_many_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """*schema*, an array of plain values, accepting one such value as well (else unchanged)."""
    items = schema.get("items")
    if types_of(schema) - {"null"} != {"array"} or not isinstance(items, dict):
        return schema
    if types_of(items) & {"array", "object"} or not types_of(items):
        return schema
    notes = {k: schema[k] for k in _ANNOTATIONS if k in schema}
    bare = {k: v for k, v in schema.items() if k not in _ANNOTATIONS}
    return {**notes, "anyOf": [bare, items]}


def _item(schema: dict[str, Any]) -> dict[str, Any]:
    """One value of a joined list: *schema* without its null alternative; a text value may
    be given as a number too (joined, it is text all the same)."""
    options = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(options, list) and len(schema) == 1:
        real = [o for o in options if isinstance(o, dict) and types_of(o) != {"null"}]
        if len(real) == 1:
            return _item(real[0])
        return {"anyOf": real} if real else {}
    kinds = types_of(schema) - {"null"}
    if kinds == {"string"}:  # numbers are written as text when joined ("nsites": [4, 8] -> "4,8")
        return {**schema, "type": ["string", "integer", "number"]}
    if "null" in types_of(schema) and kinds:
        rest = sorted(kinds)
        return {**schema, "type": rest[0] if len(rest) == 1 else rest}
    return schema


def _takes_one_text(param: Mapping[str, Any], schema: Mapping[str, Any]) -> bool:
    kinds = types_of(dict(schema))
    if "string" in kinds and "array" not in kinds:
        return True
    if kinds == {"array"} or kinds == {"array", "null"}:
        items = types_of(as_dict(schema.get("items")))
        return items <= {"string"} and param.get("explode") is False
    return False


def _texts(param: Mapping[str, Any], schema: Mapping[str, Any]) -> str:
    return " ".join(t for t in (param.get("description"), schema.get("description")) if isinstance(t, str))
