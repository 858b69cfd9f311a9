"""Filter names as aliases: a range filter's stem is the short name of the field it filters.

A document often names a range filter by a symbol of the quantity (MP's ``k_vrh_min`` and
``k_vrh_max``, "Minimum value for the Voigt-Reuss-Hill average of the bulk modulus in GPa")
while the record names the field in words (``bulk_modulus``). When a parameter is named
``<stem>_min`` or ``<stem>_max``, its stem is no field of the operation, and its description
contains the name words of one of the operation's fields of two words or more (in order,
one after another; of several, the longest), the stem becomes an alias of that field: a
question that writes "K_VRH" then names ``bulk_modulus``. The document says it, in the
filter's own description: no table of symbols is involved.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..._contracts import FieldSpec
from ..._text import name_words

_BOUNDS = ("_min", "_max")


def with_filter_aliases(fields: Sequence[FieldSpec], inputs: Mapping[str, Any]) -> tuple[FieldSpec, ...]:
    """*fields*, each with the stems of the range filters among *inputs* (input name ->
    JSON schema) that describe it added to its aliases (see the module docstring)."""
    named = {name for spec in fields for name in (spec.name, spec.sid, *spec.aliases)}
    added: dict[int, list[str]] = {}
    for wire, schema in inputs.items():
        stem = next(
            (wire[: -len(end)] for end in _BOUNDS if wire.endswith(end) and len(wire) > len(end)), None
        )
        if stem is None or stem in named or not isinstance(schema, dict):
            continue
        described = name_words(str(schema.get("description") or ""))
        target = _described(fields, described)
        if target is not None and stem not in added.setdefault(target, []):
            added[target].append(stem)
    if not added:
        return tuple(fields)
    return tuple(
        spec.model_copy(update={"aliases": [*spec.aliases, *added[i]]}) if i in added else spec
        for i, spec in enumerate(fields)
    )


def _described(fields: Sequence[FieldSpec], words: Sequence[str]) -> int | None:
    """The position of the top-level field whose name words (two or more) run in *words*,
    the longest such name; None when none does or two tie."""
    best: tuple[int, int] | None = None
    tie = False
    for i, spec in enumerate(fields):
        if spec.path is not None and len(spec.path) > 1:
            continue
        name = name_words(spec.name)
        if len(name) < 2 or not _runs(name, words):
            continue
        if best is None or len(name) > best[0]:
            best, tie = (len(name), i), False
        elif len(name) == best[0]:
            tie = True
    return None if best is None or tie else best[1]


def _runs(name: Sequence[str], words: Sequence[str]) -> bool:
    size = len(name)
    return any(tuple(words[at : at + size]) == tuple(name) for at in range(len(words) - size + 1))
