"""Which canonical arguments a model is shown first: filters on the fields the routes serve.

The model-facing schema is bounded (see :func:`.arguments.shown_arguments`), so on a large
document the arguments compete for places. Each one is read by its name against the fields
of the routes (names, semantic ids and aliases, compared as lower-case words):

* a **range filter** bounds a field: the field's name followed by ``min``, ``max``,
  ``minimum``, ``maximum``, ``gte``, ``lte``, ``gt``, ``lt``, ``ge``, ``le``, ``from``, ``to``,
  ``after``, ``before``, ``since``, ``until``, ``start``, ``end``, ``lower``, ``upper``,
  ``above`` or ``below`` (``band_gap_min``, ``createdBefore``), or ``min``/``max``/``minimum``/
  ``maximum`` followed by it (``max_nsites``), where a route accepting the argument serves
  that field;
* an **exact filter** names such a field: its whole name (``is_stable``), its plural
  (``material_ids`` for ``material_id``) or, from four letters, its leading words
  (``formula`` for ``formula_pretty``);
* anything else is **other** (``exclude_elements``, ``nsites_not_eq``, ``sort``).

A leading word ``filter`` is ignored (``filter[band_gap][gte]``). The rank of an argument
is, in this order: required by some route first (a route cannot be called without it); then
its weight, highest first: how many routes accept it plus, for a filter, how many routes serve
its field (a field several sources serve is one people ask about); then range filters,
exact filters, other; then the field (so both bounds of a range stay side by side) and
the name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from .._registry import Route
from .._text import name_words

__all__ = ["FieldIndex", "FilterKind", "FilterReading", "read_filter"]

FilterKind = Literal["range", "exact", "other"]
KIND_RANK: Mapping[FilterKind, int] = {"range": 0, "exact": 1, "other": 2}

_BOUNDS_AFTER = frozenset((
    "min", "max", "minimum", "maximum", "gte", "lte", "gt", "lt", "ge", "le", "from",
    "to", "after", "before", "since", "until", "start", "end", "lower", "upper", "above", "below",
))  # fmt: skip
_BOUNDS_BEFORE = frozenset({"min", "max", "minimum", "maximum"})
_MIN_PREFIX_CHARS = 4


def _key(words: Iterable[str]) -> str:
    return "_".join(words)


@dataclass(frozen=True, slots=True)
class FilterReading:
    """What an argument filters: its kind, the field (as a word key) and how many routes serve it."""

    kind: FilterKind = "other"
    field: str | None = None
    served_by: int = 0


class FieldIndex:
    """The fields of the model-facing routes, by word key (and by leading words, for prefixes)."""

    def __init__(self, routes: Sequence[Route]) -> None:
        self.exact: dict[str, set[str]] = {}
        self.leading: dict[str, set[str]] = {}
        for route in routes:
            for spec in route.endpoint.fields:
                for name in dict.fromkeys((spec.name, spec.semantic_id or spec.name, *spec.aliases)):
                    words = name_words(name)
                    if not words:
                        continue
                    self.exact.setdefault(_key(words), set()).add(route.path)
                    for end in range(1, len(words)):
                        lead = _key(words[:end])
                        if len(lead) >= _MIN_PREFIX_CHARS:
                            self.leading.setdefault(lead, set()).add(route.path)

    def serving(self, key: str, *, prefix: bool = False) -> set[str]:
        """The routes serving a field named *key* (or, with *prefix*, one whose name begins so)."""
        found = self.exact.get(key, set())
        return found | self.leading.get(key, set()) if prefix else found


def read_filter(name: str, accepted_by: Sequence[str], index: FieldIndex) -> FilterReading:
    """What argument *name*, accepted by the routes *accepted_by*, filters (module text)."""
    words = name_words(name)
    if len(words) > 1 and words[0] == "filter":
        words = words[1:]
    if not words:
        return FilterReading()
    accepting = set(accepted_by)
    bases = []
    if len(words) > 1 and words[-1] in _BOUNDS_AFTER:
        bases.append(words[:-1])
    if len(words) > 1 and words[0] in _BOUNDS_BEFORE:
        bases.append(words[1:])
    for base in bases:
        served = index.serving(_key(base))
        if served & accepting:
            return FilterReading("range", _key(base), len(served))
    key = _key(words)
    candidates = [(key, False)]
    if words[-1].endswith("s") and len(words[-1]) > 1:
        candidates.append((_key((*words[:-1], words[-1][:-1])), False))
    if len(key) >= _MIN_PREFIX_CHARS:
        candidates.append((key, True))
    for candidate, prefix in candidates:
        served = index.serving(candidate, prefix=prefix)
        if served & accepting:
            return FilterReading("exact", candidate, len(served))
    return FilterReading()
