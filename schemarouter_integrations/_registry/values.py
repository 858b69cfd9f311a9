"""Which object field a field is read inside, read once at registration (see ``_planning/breadth.py``).

A field read inside a small object field (``symmetry.symbol`` inside ``symmetry``, at most
:data:`VALUE_PARTS` fields inside it) is one part of a value whose parts are read together:
a call that selects it selects the object. Every compiled call asks, so a route holds the
answer from the start instead of scanning its fields per call.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .._contracts import FieldSpec

VALUE_PARTS = 8
"""The most fields read inside one object field for that object to be selected whole (a
value of a few parts, as the OpenAPI adapter opens them: MP's ``symmetry``)."""


def value_parents(fields: Sequence[FieldSpec]) -> dict[str, str]:
    """Field name -> the name of the small object field it is read inside (fields read at
    the top of the record, or inside no declared field or a large one, left out)."""
    by_path = {tuple(f.wire_path): f.name for f in fields}
    parts = Counter(tuple(f.wire_path[:-1]) for f in fields)
    out: dict[str, str] = {}
    for spec in fields:
        path = spec.wire_path
        if len(path) > 1 and spec.name not in out:
            above = tuple(path[:-1])
            parent = by_path.get(above)
            if parent is not None and parts[above] <= VALUE_PARTS:
                out[spec.name] = parent
    return out
