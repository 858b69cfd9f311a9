"""Canonical arguments as an OPTIMADE filter, with values that can never become syntax.

Every value is written as an OPTIMADE string literal: ``"`` and ``\\`` are escaped and
control characters are refused, so ``Si" OR nelements>0`` stays one string. The raw
``filter`` argument is filter syntax by design; it is AND-ed in parentheses after checking
that its parentheses and string literals are balanced, so it cannot reach past them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from functools import reduce
from typing import Any

from ...errors import SchemaValidationError

_FORMULA = re.compile(r"(?:[A-Z][a-z]?\d*)+")
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


def build_filter(arguments: Mapping[str, Any]) -> str | None:
    """The ``filter`` query parameter for canonical *arguments* (None when nothing filters)."""
    clauses: list[str] = []
    raw = arguments.get("filter")
    if raw is not None:
        if not isinstance(raw, str):
            raise SchemaValidationError("filter must be a string")
        checked = check_raw_filter(raw)
        if checked:
            clauses.append(f"({checked})")
    formula = arguments.get("formula")
    if formula is not None:
        if not isinstance(formula, str):
            raise SchemaValidationError("formula must be a string")
        clauses.append(f"chemical_formula_reduced={string_literal(reduced_formula(formula))}")
    elements = arguments.get("elements")
    if elements is not None:
        symbols = ",".join(string_literal(s) for s in element_list(elements))
        clauses.append(f"elements HAS ALL {symbols}")
    return " AND ".join(clauses) or None
