"""Helpers shared by the adapters: field overrides, projections, names and untrusted data."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import ValidationError

from .._contracts import FieldSpec, ServerProjectionSpec
from .._registry.routes import label_words
from .._text import name_words
from ..errors import RegistrationError

_UNSAFE = re.compile(r"[^A-Za-z0-9_]+")
MAX_NAME_CHARS = 100
_VALID_NAME = re.compile(rf"[A-Za-z_][A-Za-z0-9_]{{0,{MAX_NAME_CHARS - 1}}}")
DESCRIPTION_CHARS = 300
MAX_MESSAGE_CHARS = 480
_SHOWN_UNKNOWN = 5
_SHOWN_KNOWN = 10


def coerce_fields(value: Any, *, what: str) -> list[FieldSpec]:
    """``fields=`` as FieldSpecs: accepts FieldSpec objects, names and FieldSpec dicts."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise RegistrationError(f"{what}: fields= must be a list of FieldSpec or names")
    out: list[FieldSpec] = []
    for item in value:
        try:
            if isinstance(item, FieldSpec):
                out.append(item)
            elif isinstance(item, str):
                out.append(FieldSpec(name=item))
            elif isinstance(item, Mapping):
                out.append(FieldSpec.model_validate(dict(item)))
            else:
                raise RegistrationError(
                    f"{what}: a field must be a FieldSpec or a name, got {type(item).__name__}"
                )
        except ValidationError as exc:
            raise RegistrationError(f"{what}: invalid field {item!r}: {exc}") from exc
    return out


def merge_fields(derived: Iterable[FieldSpec], overrides: Iterable[FieldSpec]) -> tuple[FieldSpec, ...]:
    """*derived* fields with *overrides* applied by name: same name replaces, new name adds.

    A bare name (a FieldSpec with nothing but its name) that is already derived keeps the
    derived field, so ``fields=["band_gap"]`` never throws away what the document said.
    """
    merged = {f.name: f for f in derived}
    for field in overrides:
        if field.name in merged and _bare(field):
            continue
        merged[field.name] = field
    return tuple(merged.values())


def complete_projection(
    projection: ServerProjectionSpec | None, fields: Iterable[FieldSpec]
) -> ServerProjectionSpec | None:
    """*projection* with ``field_map`` limited to known fields and completed from wire paths.

    A field whose wire path starts with another key than its name (``band_gap`` read from
    ``_oqmd_band_gap``) is requested upstream by that key; a JSON:API attribute (path
    ``["attributes", name]``) by its attribute name.
    """
    if projection is None:
        return None
    known = {f.name: f for f in fields}
    field_map = {name: wire for name, wire in projection.field_map.items() if name in known}
    for name, field in known.items():
        path = field.wire_path
        wire = path[1] if len(path) == 2 and path[0] == "attributes" else path[0]
        if name not in field_map and wire != name:
            field_map[name] = wire
    return projection.model_copy(update={"field_map": field_map})


def is_identity_name(name: str, argument_names: Iterable[str] = ()) -> bool:
    """The default identity rule: a field named ``id`` or ending in ``_id`` (``material_id``),
    or named like an argument of its endpoint (``formula`` when ``formula`` is an argument)."""
    folded = name.casefold()
    return folded == "id" or folded.endswith("_id") or name in set(argument_names)


LABEL_NAMES = frozenset({
    "formula", "formula_pretty", "pretty_formula", "formula_reduced", "reduced_formula",
    "chemical_formula_reduced", "chemical_formula_descriptive", "name", "title",
    "display_name", "displayname", "full_name", "label", "symbol",
})  # fmt: skip
"""Field names that name a record's subject for people: ``label=True`` by default."""


def is_label_name(name: str) -> bool:
    """The default label rule: a field named as in :data:`LABEL_NAMES` (any case)."""
    return name.casefold() in LABEL_NAMES


def _names_subject(field: FieldSpec) -> bool:
    """A top-level field of text or a list of texts whose name has a label word (formula,
    name, title: :func:`~.._registry.routes.label_words`): a label of a record that has no
    field named as in :data:`LABEL_NAMES`."""
    if len(field.wire_path) != 1 or not label_words(field.name):
        return False
    schema = field.json_schema or {}
    options = schema.get("anyOf") or schema.get("oneOf") or [schema]
    kinds = [o.get("items") if o.get("type") == "array" else o for o in options if isinstance(o, dict)]
    kinds = [k for k in kinds if not (isinstance(k, dict) and k.get("type") == "null")]
    return bool(kinds) and all(_text_like(k) for k in kinds)


def _text_like(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type") in ("string", None) and "properties" not in schema


def with_identity_defaults(
    fields: Iterable[FieldSpec], argument_names: Iterable[str] = ()
) -> list[FieldSpec]:
    """*fields* with ``identity=True`` where :func:`is_identity_name` says so, and
    ``label=True`` where :func:`is_label_name` does (for scalar fields; a given value is kept).

    A record with no field named as a label takes as labels its top-level text fields whose
    name has a label word (a recipe's ``targets_formula_s``).
    A field whose ``identity`` was given explicitly (``FieldSpec(..., identity=False)``) keeps
    it; only the default is filled in. A field whose values are arrays or objects is never an
    identity by default (``elements`` named by an argument tells records apart by nothing).
    The Python adapter passes its parameters; the OpenAPI adapter passes none (its filter
    parameters, such as ``created``, identify nothing), so only ids count there.
    """
    names = frozenset(argument_names)
    out: list[FieldSpec] = []
    for field in fields:
        kind = (field.json_schema or {}).get("type")
        scalar = kind not in ("array", "object")  # a list of elements identifies nothing
        if (
            not field.identity
            and "identity" not in field.model_fields_set
            and scalar
            and is_identity_name(field.name, names)
        ):
            field = field.model_copy(update={"identity": True})
        if not field.label and "label" not in field.model_fields_set and scalar and is_label_name(field.name):
            field = field.model_copy(update={"label": True})
        out.append(field)
    if any(f.label or "label" in f.model_fields_set for f in out):
        return out
    # no field named as a label: the fields whose name has a label word name the subject
    return [f.model_copy(update={"label": True}) if _names_subject(f) else f for f in out]


def is_valid_name(text: str) -> bool:
    """Whether *text* is a valid endpoint name as it is: ASCII letters, digits and ``_``, not
    starting with a digit, at most :data:`MAX_NAME_CHARS` characters."""
    return _VALID_NAME.fullmatch(text) is not None


def safe_name(text: str, *, fallback: str = "operation") -> str:
    """A name made of letters, digits and ``_`` (never empty, never starting with a digit,
    at most :data:`MAX_NAME_CHARS` characters)."""
    name = _UNSAFE.sub("_", text).strip("_")[: MAX_NAME_CHARS - 8].rstrip("_")
    if not name:
        return fallback
    return f"_{name}" if name[0].isdigit() else name


def unique_name(name: str, taken: set[str]) -> str:
    candidate, counter = name, 2
    while candidate in taken:
        candidate, counter = f"{name}_{counter}", counter + 1
    taken.add(candidate)
    return candidate


def title_aliases(name: str, title: Any) -> list[str]:
    """A schema ``title`` as a field's alias when it names the field in other words than its
    name does ("Chemical System" for ``chemsys``, "Space Group Symbol" for ``symbol``); a
    title that only re-spells the name ("Band Gap" for ``band_gap``), and a one-word title (a
    class name such as ``PaymentIntentNextAction``), add nothing."""
    if not isinstance(title, str) or len(title.split()) < 2 or len(title) > MAX_NAME_CHARS:
        return []  # one word: an identifier (a class name), or the name itself
    words = name_words(title)
    return [" ".join(title.split())] if words and set(words) != set(name_words(name)) else []


def short_description(*texts: Any, limit: int = DESCRIPTION_CHARS) -> str:
    """The first paragraph of the first non-empty text, on one line, at most *limit* chars."""
    for text in texts:
        if isinstance(text, str) and text.strip():
            first = text.strip().split("\n\n", 1)[0]
            line = " ".join(first.split())
            return line if len(line) <= limit else line[: limit - 1] + "…"
    return ""


def unknown_names(option: str, noun: str, unknown: Iterable[str], known: Iterable[str]) -> RegistrationError:
    """The error for *option* naming unknown things: short, with the closest valid choices.

    Reads ``"<option> names unknown <noun>(s) ['x']; did you mean 'y'?"``. A handful of known
    names are listed whole; more are counted, never dumped (a document may have thousands).
    """
    wrong = sorted(set(unknown))
    choices = sorted(set(known))
    hints: list[str] = []
    for name in wrong[:_SHOWN_UNKNOWN]:
        hints.extend(c for c in difflib.get_close_matches(name, choices, n=3, cutoff=0.6) if c not in hints)
    shown = repr(wrong[:_SHOWN_UNKNOWN])
    if len(wrong) > _SHOWN_UNKNOWN:
        shown += f" and {len(wrong) - _SHOWN_UNKNOWN} more"
    message = f"{option} names unknown {noun}(s) {shown}"
    if hints:
        message += "; did you mean " + ", ".join(repr(h) for h in hints[:5]) + "?"
    if len(choices) <= _SHOWN_KNOWN:
        message += f"; known: {choices}"
    else:
        message += f" ({len(choices)} known)"
    return RegistrationError(
        message if len(message) <= MAX_MESSAGE_CHARS else message[: MAX_MESSAGE_CHARS - 1] + "…"
    )


def per_endpoint(option: Any, *names: str) -> Any:
    """An option given once for all endpoints, or as a mapping keyed by endpoint name."""
    if isinstance(option, Mapping):
        for name in names:
            if name in option:
                return option[name]
        return None
    return option


def as_dict(value: Any) -> dict[str, Any]:
    """*value* when it is a dict, else an empty dict (for reading untrusted documents)."""
    return value if isinstance(value, dict) else {}


def _bare(field: FieldSpec) -> bool:
    return field == FieldSpec(name=field.name)
