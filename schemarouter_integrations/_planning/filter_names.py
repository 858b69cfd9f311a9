"""Names written in a filter expression: evidence for the routes whose records have them.

Some sources take a whole filter expression as one argument (OPTIMADE's ``filter``:
``nelements=2 AND _oqmd_band_gap>=1``). Its schema says so with the note
:data:`~.._contracts.schemas.FILTER_NAMES`: the names written in it, in lower case outside
quotes (OPTIMADE's grammar writes its keywords in capitals and its property names in lower
case), are names of the records' fields. A route whose fields (name or where the value sits)
lack one of them cannot take that filter: its server would refuse it ("'nelements' is not a
known or searchable quantity" from an entry type without it), so the planner's argument check
rules the route out, naming the filter and the names. A route whose records have them takes it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .._bounded import BoundedCache
from .._contracts.schemas import FILTER_NAMES
from .._registry import Route

_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')
_NAME = re.compile(r"(?<![\w.])[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*(?![\w(])")
_NAMES: BoundedCache[str, frozenset[str]] = BoundedCache(16384)
"""Per endpoint fingerprint: its fields' names and the keys where their values sit."""


def filter_problem(route: Route, arguments: Mapping[str, Any]) -> str | None:
    """Why *route* cannot take a filter expression of *arguments* (None: it can, or none is given)."""
    properties = route.endpoint.input_schema.get("properties")
    if not isinstance(properties, Mapping):
        return None
    for argument, value in arguments.items():
        schema = properties.get(argument)
        if not isinstance(value, str) or not isinstance(schema, Mapping) or not schema.get(FILTER_NAMES):
            continue
        unknown = [name for name in written_names(value) if name not in _field_names(route)]
        if unknown:
            return (
                f"its records have no field {', '.join(map(repr, unknown))}, which the {argument!r} "
                "argument filters on"
            )
    return None


def written_names(expression: str) -> list[str]:
    """The lower-case names written in *expression* outside quotes, in order, each once."""
    return list(dict.fromkeys(_NAME.findall(_QUOTED.sub(" ", expression))))


def _field_names(route: Route) -> frozenset[str]:
    found = _NAMES.get(route.endpoint_fingerprint)
    if found is None:
        names: set[str] = set()
        for spec in route.endpoint.fields:
            names.add(spec.name)
            names.update(spec.wire_path)
            names.add(".".join(spec.wire_path))
        found = _NAMES.put(route.endpoint_fingerprint, frozenset(names))
    return found
