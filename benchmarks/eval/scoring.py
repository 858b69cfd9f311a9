"""The scoring rules of ``make eval``: pure functions over what one asked question brought back.

* right operation: the operation the router planned is one of the expected ones (for a
  question no operation answers: the router did not answer it silently);
* right value: a record (the one ``where`` names) carries the expected value of the field;
* fields carried: every expected field is in the records (at any depth, names compared after
  case-folding and dropping ``_``, ``-``, ``.`` and spaces);
* names what is missing: the text the model reads names every missing term;
* arguments from earlier steps: ``{steps[i].field}`` (or ``{steps[i].field|default}``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from benchmarks.eval.corpus import TEMPLATE, ValueRule

Record = Mapping[str, Any]


def squash(name: str) -> str:
    """A field or key name compared loosely: ``chemical_formula-reduced`` -> ``chemicalformulareduced``."""
    return re.sub(r"[\s_\-.]+", "", name).casefold()


def values_of(node: Any, field: str) -> Iterator[Any]:
    """Every value under a key named *field* (loosely) anywhere in *node*, in document order
    (depth first); a list value yields itself and then each of its items. A dotted key (a
    nested field as the router returns it: ``thermal_conductivity.clarke``) is named by its
    whole name and by its last part."""
    wanted = squash(field)

    def walk(current: Any) -> Iterator[Any]:
        if isinstance(current, Mapping):
            for key, value in current.items():
                if wanted in (squash(str(key)), squash(str(key).rsplit(".", 1)[-1])):
                    yield value
                    if isinstance(value, list):
                        yield from value
                yield from walk(value)
        elif isinstance(current, list):
            for item in current:
                yield from walk(item)

    return walk(node)


def same(got: Any, wanted: Any) -> bool:
    """Equal as numbers when both are numbers, else as case-folded text."""
    if isinstance(got, bool) or isinstance(wanted, bool):
        return got is wanted or str(got).casefold() == str(wanted).casefold()
    if isinstance(got, int | float) and isinstance(wanted, int | float):
        return math.isclose(float(got), float(wanted), rel_tol=0.0, abs_tol=1e-9)
    if isinstance(got, Mapping | list):
        return False
    return str(got).strip().casefold() == str(wanted).strip().casefold()


def matches(record: Record, where: Mapping[str, Any]) -> bool:
    """Whether *record* is the subject *where* names."""
    return all(any(same(v, wanted) for v in values_of(record, key)) for key, wanted in where.items())


def value_right(records: Sequence[Record], rule: ValueRule) -> bool:
    """Whether the records carry the expected value (see the module docstring)."""
    subjects = [r for r in records if matches(r, rule.where)] if rule.where else list(records)
    found = [v for r in subjects for v in values_of(r, rule.field)]
    if rule.contains is not None:
        return bool(rule.contains) and all(any(same(v, w) for v in found) for w in rule.contains)
    if rule.approx is not None:
        target = rule.approx
        return any(
            isinstance(v, int | float)
            and not isinstance(v, bool)
            and abs(float(v) - target) <= rule.tolerance
            for v in found
        )
    return any(same(v, rule.equals) for v in found)


def fields_carried(records: Sequence[Record], fields: Iterable[str]) -> bool:
    """Whether every field is in at least one record (vacuously true without fields)."""
    wanted = list(fields)
    if not wanted:
        return True
    return bool(records) and all(any(True for r in records for _ in values_of(r, f)) for f in wanted)


def _words(text: str) -> str:
    return " " + re.sub(r"[\W_]+", " ", text.casefold()).strip() + " "


def names_missing(text: str, missing: Iterable[str], query: str = "") -> bool:
    """Whether *text* names every missing term: the phrase itself, or each of its words of
    three letters or more (as a word or a word's start: "elastic" names "elasticity"). The
    *query* quoted back in the text names nothing."""
    said = _words(text.replace(query, " ") if query else text)
    for term in missing:
        phrase = _words(term).strip()
        if f" {phrase}" in said:
            continue
        words = [w for w in phrase.split() if len(w) >= 3] or phrase.split()
        if not words or not all(f" {w}" in said for w in words):
            return False
    return True


def operation_right(chosen: str | None, expected: Iterable[str]) -> bool:
    """For an answerable question: the planned endpoint is one of the expected endpoints."""
    return chosen is not None and chosen in set(expected)


def refused(answered: bool, planned_missing: Sequence[str], chosen: str | None) -> bool:
    """For a question no operation answers: the router did not answer it as if it could
    (it failed, planned nothing, or its plan says what it cannot serve)."""
    return not answered or chosen is None or bool(planned_missing)


def resolve_arguments(
    arguments: Mapping[str, Any], earlier: Sequence[Sequence[Record]]
) -> tuple[dict[str, Any], bool]:
    """*arguments* with ``{steps[i].field}`` replaced from the records of step *i*; the second
    item is False when a reference had to use its default (the earlier answer lacked it).

    A value that is the reference alone becomes the values found (one value: itself; several:
    the list; ``[i]``: the i-th only); inside a longer text the first value found is written in.
    """
    chained = True

    def found(match: re.Match[str]) -> list[Any]:
        step, field, index = int(match.group(1)), match.group(2), match.group(3)
        records = earlier[step] if step < len(earlier) else []
        values = [v for r in records for v in values_of(r, field) if not isinstance(v, Mapping | list)]
        if index is None:
            return values
        return values[int(index) : int(index) + 1]

    def resolve(value: Any) -> Any:
        nonlocal chained
        if not isinstance(value, str) or not TEMPLATE.search(value):
            return value
        whole = TEMPLATE.fullmatch(value)
        if whole is not None:
            values = found(whole)
            if values:
                return values[0] if len(values) == 1 else values
            chained = False
            return whole.group(4) if whole.group(4) is not None else value

        def one(match: re.Match[str]) -> str:
            nonlocal chained
            values = found(match)
            if values:
                return str(values[0])
            chained = False
            return match.group(4) or ""

        return TEMPLATE.sub(one, value)

    return {k: resolve(v) for k, v in arguments.items()}, chained


def _kind_of(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, Mapping) else "null"


def _options(schema: Mapping[str, Any], defs: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The alternatives of *schema* (``anyOf``/``oneOf`` flattened, local ``$ref``s followed)."""
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        schema = defs.get(ref.removeprefix("#/$defs/"), {})
    nested = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(nested, list):
        return [o for n in nested if isinstance(n, Mapping) for o in _options(n, defs)]
    return [schema]


def conform(value: Any, schema: Mapping[str, Any], defs: Mapping[str, Any] | None = None) -> Any:
    """The value a model writes for *value* under the JSON schema it is shown (function calling
    follows the schema): a number as text where only text is taken, one item as a list where
    only lists are, a list joined with commas where only text is, an enum member in its case.
    A value the schema already takes, or one it cannot take in any of these ways, is unchanged."""
    defs = defs or {}
    options = _options(schema, defs)
    kinds = {str(o.get("type")) for o in options if o.get("type") is not None}
    kind = _kind_of(value)
    for option in options:
        enum = option.get("enum")
        if isinstance(enum, list) and isinstance(value, str) and value not in enum:
            for member in enum:
                if isinstance(member, str) and member.casefold() == value.casefold():
                    return member
    if not kinds or kind in kinds or (kind == "integer" and "number" in kinds):
        return value
    if kind in ("integer", "number") and "string" in kinds:
        return str(value)
    if kind == "string" and "integer" in kinds and value.strip().lstrip("-").isdigit():
        return int(value)
    if kind != "array" and "array" in kinds:
        items = next((o.get("items") for o in options if o.get("type") == "array"), None)
        return [conform(value, items, defs) if isinstance(items, Mapping) else value]
    if kind == "array" and "string" in kinds:
        return ",".join(str(v) for v in value)
    return value
