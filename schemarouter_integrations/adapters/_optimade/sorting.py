"""OPTIMADE's ``sort`` query parameter: the order of the entries a listing returns.

The specification's optional ``sort`` is a comma-separated list of property names, each
sorted ascending, or descending with a leading ``-`` (``-nsites,chemical_formula_reduced``).
The ``sort`` argument takes that text or a list of such names. A name may be the field's
canonical name (``band_gap``), sent as the database's property (``_oqmd_band_gap``); a name
that is not a property name is refused before anything is sent. A database that does not
sort, or not by that property, answers an error the run reports.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..._contracts import FieldSpec
from ..._contracts.schemas import LIST_SEPARATOR
from ...errors import SchemaValidationError

__all__ = ["SORT_SCHEMA", "sort_names", "sort_parameter"]

_NAME = r"-?[A-Za-z_][A-Za-z0-9_]*"
_ONE = re.compile(_NAME)
SORT_SCHEMA: dict[str, Any] = {
    "anyOf": [
        {"type": "string", "pattern": f"^{_NAME}(,{_NAME})*$"},
        {"type": "array", "items": {"type": "string", "pattern": f"^{_NAME}$"}, "minItems": 1},
    ],
    "description": "Order of the entries: property names, comma-separated or a list; '-' before "
    "a name sorts descending (e.g. '-nsites')",
    LIST_SEPARATOR: ",",
}
"""The input schema of the ``sort`` argument."""


def sort_names(fields: Sequence[FieldSpec]) -> dict[str, str]:
    """Field name -> property name, for the fields named otherwise than their property."""
    return {f.name: f.wire_path[0] for f in fields if len(f.wire_path) == 1 and f.wire_path[0] != f.name}


def sort_parameter(value: Any, names: Mapping[str, str]) -> str:
    """The ``sort`` query parameter for the argument *value* (text or list of names)."""
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list | tuple) or not items:
        raise SchemaValidationError("sort must be property names, comma-separated or a list")
    out: list[str] = []
    for item in items:
        name = item.strip() if isinstance(item, str) else ""
        if not _ONE.fullmatch(name):
            raise SchemaValidationError(f"sort: {item!r} is not a property name ('-' before it: descending)")
        descending = name.startswith("-")
        bare = name.removeprefix("-")
        out.append(("-" if descending else "") + names.get(bare, bare))
    return ",".join(out)
