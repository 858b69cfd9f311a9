"""Canonical arguments as an OPTIMADE filter, with values that can never become syntax.

Every value is written as an OPTIMADE string literal: ``"`` and ``\\`` are escaped and
control characters are refused, so ``Si" OR nelements>0`` stays one string. The raw
``filter`` argument is filter syntax by design; it is AND-ed in parentheses after checking
that its parentheses and string literals are balanced, so it cannot reach past them.

Arguments go in OPTIMADE's own form (:data:`SUBJECT_ARGUMENTS`): a list of subjects, or
several in one comma-separated text as other APIs take them (``"Si,GaAs"``), becomes ``OR``
clauses (``(chemical_formula_reduced="Si" OR chemical_formula_reduced="AsGa")``), never one
value; identity arguments (``material_ids=["mp-149"]``) filter on the entry's ``id``.

A raw filter may ask for membership the way SQL does, ``chemical_formula_reduced IN "Si","Ge"``
(or ``IN ("Si", "Ge")``, ``NOT IN``), which OPTIMADE's grammar does not have: it is written as
the ``OR`` clauses the grammar has (``(chemical_formula_reduced="Si" OR ...)``; a list
property such as ``elements`` as ``HAS ANY``), formulas in their reduced form.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from functools import reduce
from typing import Any

from ...errors import SchemaValidationError

_FORMULA = re.compile(r"(?:[A-Z][a-z]?\d*)+")
SUBJECT_ARGUMENTS: dict[str, str] = {
    "formula": "chemical_formula_reduced",
    "ids": "id",
    "material_ids": "id",
}
"""Argument -> the OPTIMADE property it names subjects by (one value, a list, or a
comma-separated text of them): formulas by their reduced formula, identities by ``id``."""
_TERM = re.compile(r"([A-Z][a-z]?)(\d*)")


def string_literal(value: str) -> str:
    """``value`` as an OPTIMADE string literal."""
    if not isinstance(value, str):
        raise SchemaValidationError(f"an OPTIMADE string value must be text, got {type(value).__name__}")
    bad = next((ch for ch in value if ord(ch) < 0x20 or ord(ch) == 0x7F), None)
    if bad is not None:
        raise SchemaValidationError(
            f"an OPTIMADE string value may not contain control characters (found {bad!r})"
        )
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def reduced_formula(formula: str) -> str:
    """OPTIMADE's ``chemical_formula_reduced`` form: elements alphabetical, counts reduced.

    ``"GaAs"`` and ``"Ga2As2"`` both give ``"AsGa"``; ``"Fe4O6"`` gives ``"Fe2O3"``. Text
    that is not a plain formula (parentheses, spaces, ...) is returned unchanged.
    """
    text = formula.strip()
    if not _FORMULA.fullmatch(text):
        return formula
    counts: dict[str, int] = {}
    for symbol, count in _TERM.findall(text):
        counts[symbol] = counts.get(symbol, 0) + (int(count) if count else 1)
    if 0 in counts.values():
        return formula
    divisor = reduce(math.gcd, counts.values())
    return "".join(
        f"{symbol}{counts[symbol] // divisor if counts[symbol] // divisor > 1 else ''}"
        for symbol in sorted(counts)
    )


def element_list(value: Any) -> list[str]:
    """``["Ga", "As"]`` from a list of symbols or a comma-separated string."""
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)):
        raise SchemaValidationError("elements must be a list of symbols or a comma-separated string")
    symbols = [item.strip() if isinstance(item, str) else item for item in items]
    out = [s for s in symbols if s != ""]
    if not out:
        raise SchemaValidationError("elements names no element")
    return out


def subjects(argument: str, value: Any) -> list[str]:
    """The subjects *value* names: one text, a list of texts, or a comma-separated text."""
    items = value if isinstance(value, (list, tuple)) else [value]
    if not all(isinstance(item, str) for item in items):
        raise SchemaValidationError(f"{argument} must be text or a list of texts")
    out = [part.strip() for item in items for part in item.split(",") if part.strip()]
    if not out:
        raise SchemaValidationError(f"{argument} names nothing")
    return list(dict.fromkeys(out))


def subject_clause(argument: str, prop: str, value: Any) -> str:
    """``prop="x"``, or ``(prop="x" OR prop="y")`` for several subjects."""
    named = subjects(argument, value)
    if prop == "chemical_formula_reduced":
        named = list(dict.fromkeys(reduced_formula(f) for f in named))
    clauses = [f"{prop}={string_literal(v)}" for v in named]
    return clauses[0] if len(clauses) == 1 else "(" + " OR ".join(clauses) + ")"


def number_literal(argument: str, value: Any) -> str:
    """A finite number as an OPTIMADE number literal."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise SchemaValidationError(f"{argument} must be a finite number")
    return repr(value) if isinstance(value, float) else str(value)


def check_raw_filter(text: str) -> str:
    """*text* stripped, after checking its parentheses and string literals are balanced."""
    depth = 0
    in_string = False
    escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise SchemaValidationError("filter closes a parenthesis it never opened")
    if in_string:
        raise SchemaValidationError("filter has an unterminated string literal")
    if depth:
        raise SchemaValidationError("filter leaves a parenthesis open")
    return text.strip()


_STRING = r'"(?:[^"\\]|\\.)*"'
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_VALUE = rf"(?:{_STRING}|{_NUMBER})"
_MEMBERSHIP = re.compile(
    rf"(?P<prop>[A-Za-z_][A-Za-z0-9_]*)\s+(?P<not>NOT\s+)?IN\s*"
    rf"(?P<open>[(\[])?\s*(?P<values>{_VALUE}(?:\s*,\s*{_VALUE})*)(?:\s*(?P<close>[)\]]))?",
    re.IGNORECASE,
)
_ONE_VALUE = re.compile(_VALUE)
_STRINGS = re.compile(_STRING)
LIST_PROPERTIES = frozenset({"elements", "species_at_sites", "structure_features", "nelements_list"})
"""Properties whose value is a list: membership in them is ``HAS ANY``."""


def membership_as_or(text: str) -> str:
    """*text* with each ``prop IN v1, v2`` (not inside a string literal) written as OPTIMADE
    clauses: ``(prop=v1 OR prop=v2)``, ``prop HAS ANY v1,v2`` for a list property, negated
    for ``NOT IN``; the values keep their literal form (formulas reduced)."""
    inside = [m.span() for m in _STRINGS.finditer(text)]

    def rewrite(match: re.Match[str]) -> str:
        start = match.start()
        if any(low < start < high for low, high in inside) or bool(match["open"]) != bool(match["close"]):
            return match.group()
        prop = match["prop"]
        values = [v.group() for v in _ONE_VALUE.finditer(match["values"])]
        if prop == "chemical_formula_reduced":
            values = [_reduced_literal(v) for v in values]
        values = list(dict.fromkeys(values))
        if prop in LIST_PROPERTIES:
            clause = f"{prop} HAS ANY {','.join(values)}"
        else:
            clause = "(" + " OR ".join(f"{prop}={v}" for v in values) + ")"
        if not match["not"]:
            return clause
        return f"NOT {clause}" if clause.startswith("(") else f"NOT ({clause})"

    return _MEMBERSHIP.sub(rewrite, text)


def _reduced_literal(literal: str) -> str:
    if not literal.startswith('"') or "\\" in literal:
        return literal
    return string_literal(reduced_formula(literal[1:-1]))


def build_filter(
    arguments: Mapping[str, Any], bounds: Mapping[str, tuple[str, str]] | None = None
) -> str | None:
    """The ``filter`` query parameter for canonical *arguments* (None when nothing filters);
    *bounds* maps each range argument to its property and operator (``_oqmd_band_gap``, ``>=``)."""
    clauses: list[str] = []
    raw = arguments.get("filter")
    if raw is not None:
        if not isinstance(raw, str):
            raise SchemaValidationError("filter must be a string")
        checked = membership_as_or(check_raw_filter(raw))
        if checked:
            clauses.append(f"({checked})")
    for argument, prop in SUBJECT_ARGUMENTS.items():
        given = arguments.get(argument)
        if given is not None:
            clauses.append(subject_clause(argument, prop, given))
    for argument, (wire, operator) in (bounds or {}).items():
        bound = arguments.get(argument)
        if bound is not None:
            clauses.append(f"{wire}{operator}{number_literal(argument, bound)}")
    elements = arguments.get("elements")
    if elements is not None:
        symbols = ",".join(string_literal(s) for s in element_list(elements))
        clauses.append(f"elements HAS ALL {symbols}")
    return " AND ".join(clauses) or None
