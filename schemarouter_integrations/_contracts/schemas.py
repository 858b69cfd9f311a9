"""JSON Schema checks for contracts, with one compiled validator per schema fingerprint.

``jsonschema`` (with ``referencing``, ``attrs``, ``rpds``) is imported on the first check, not
with the package: importing the core costs only what it uses.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .._bounded import BoundedCache
from .coercion import coerced_arguments as coerced_arguments
from .fast_check import fast_is_valid
from .fingerprint import canonical_json, fingerprint_of
from .interning import FrozenDict
from .messages import argument_problem as argument_problem
from .messages import validation_errors as validation_errors
from .patterns import pattern_problem, patterns_in, search
from .views import text_fingerprint

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError
    from jsonschema.protocols import Validator
    from referencing import Registry

_VALIDATORS: BoundedCache[str, Validator] = BoundedCache(4096)
"""Compiled validators by schema fingerprint (or caller's key); pure memo, oldest leave first."""
LIST_SEPARATOR = "x-list-separator"
"""An input-schema property's note: a list argument is sent joined with this separator."""
ARGUMENT_ROLE = "x-argument-role"
"""An input-schema property's note: the argument is the router's or the application's business
(``"pagination"``, ``"projection"``, ``"format"``, ``"licence"``), never shown to a model. The
application may still pass it (planning checks arguments against the input schema as is)."""
PATH_SEGMENT = "x-path-segment"
"""A path parameter's note: the literal path segment before it (``disease`` of
``/bioentity/disease/{id}/phenotypes``), the kind of subject its value names."""
FILTER_NAMES = "x-filter-names"
"""A text argument's note: it is a filter expression whose lower-case names outside quotes
are names of the records' fields (OPTIMADE's ``filter``); a route whose fields lack one cannot
take it (``_planning/filter_names.py``)."""
PATH_TAIL = "x-path-tail"
"""The last path parameter's note: the literal segments after it (``ortholog/diseases`` of
``/bioentity/gene/{id}/ortholog/diseases``), what the operation returns of that subject."""
PAGING = "x-paging"
"""A pagination argument's note: how it pages a listing. ``"offset"``: how many matching
records to skip; ``"page"``: the number of the page; ``"size"``: how many records a page
holds; ``"cursor"``: a token from the previous page (not followed by the router)."""
_REFERRING = ('"$ref"', '"$dynamicRef"', '"$recursiveRef"', '"$schema"')
"""The keys (as canonical JSON writes them) without which a schema refers to nothing."""
MAX_SCHEMA_DEPTH = 64
"""Deepest nesting of objects and arrays a contract schema may have (real schemas stay far below)."""


@functools.cache
def _no_retrieval() -> Registry[Any]:
    """References resolve inside the schema only: validation never fetches anything."""
    from referencing import Registry

    return Registry()


_CHECKED: BoundedCache[str, bool] = BoundedCache(4096)
"""Fingerprints of schemas already found valid."""

_VALID_NODES: BoundedCache[str, bool] = BoundedCache(16384)
"""2020-12 schema nodes (subschemas replaced by ``true``) already found valid."""
_SUBSCHEMA_MAPS = ("properties", "patternProperties", "$defs", "dependentSchemas")
_SUBSCHEMA_ONE = (
    "items", "additionalProperties", "contains", "propertyNames", "not", "if", "then", "else",
    "unevaluatedItems", "unevaluatedProperties", "contentSchema",
)  # fmt: skip
_SUBSCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_FREE_TEXTS = frozenset({"title", "description", "$comment"})
_ANY_VALUE = frozenset({"default", "const"})
_ANY_LIST = frozenset({"enum", "examples"})


@functools.cache
def _meta_2020_12() -> Validator:
    """The 2020-12 meta-schema's validator, built on first use."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(
        Draft202012Validator.META_SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER
    )


def check_schema(schema: dict[str, Any], *, what: str) -> str:
    """Raise ``ValueError`` naming *what* when *schema* is not a valid, self-contained JSON Schema;
    return its fingerprint.

    The schema must be JSON data nested at most :data:`MAX_SCHEMA_DEPTH` deep, valid against
    its meta-schema, and its references must resolve inside it without an endless in-place
    cycle (see :mod:`.references`). Schemas already found valid are remembered by
    fingerprint, so large OpenAPI documents with many shared schemas are checked once per
    distinct schema.
    """
    if not isinstance(schema, dict):
        raise ValueError(f"{what} must be a JSON Schema object, got {type(schema).__name__}")
    if type(schema) is FrozenDict:  # a contract's interned schema: checked when it was interned
        checked = schema.checked_key()
        if checked is not None:
            return checked
    try:
        text = canonical_json(schema)
    except ValueError as exc:
        raise ValueError(f"{what} is not JSON data: {exc}") from None
    key = text_fingerprint(text)
    if _CHECKED.get(key):
        return key
    problem = _json_data_problem(schema)
    if problem is not None:
        raise ValueError(f"{what} {problem}")
    import jsonschema
    from jsonschema.validators import validator_for

    from .references import reference_problem

    cls = validator_for(schema, default=jsonschema.Draft202012Validator)
    try:
        if cls is not jsonschema.Draft202012Validator or not _valid_node_by_node(schema):
            cls.check_schema(schema)  # the whole check, which also says what is wrong
    except jsonschema.SchemaError as exc:
        location = "/".join(str(p) for p in exc.absolute_path) or "<root>"
        raise ValueError(f"{what} is not a valid JSON Schema at {location}: {exc.message}") from exc
    # a schema whose text names no reference keyword nor dialect has no reference to resolve,
    # one that has no "pattern..." key no pattern: their walks are skipped
    problem = reference_problem(schema) if any(word in text for word in _REFERRING) else None
    if problem is not None:
        raise ValueError(f"{what} is not usable: {problem}")
    for where, pattern in patterns_in(schema) if '"pattern' in text else ():
        problem = pattern_problem(pattern)
        if problem is not None:
            raise ValueError(f"{what} is not usable at {where or '<root>'}: {problem}")
    _CHECKED.put(key, True)
    return key


def _valid_node_by_node(schema: dict[str, Any]) -> bool:
    """Whether *schema* is a valid 2020-12 schema, checking each distinct node once.

    The 2020-12 meta-schema checks every subschema against itself again (``$dynamicRef``),
    so a schema is valid when each of its nodes is, with its subschemas replaced by
    ``true``. Nodes repeat across the schemas of a large document, and each distinct one is
    checked once. False means "not shown valid" (the whole check then decides); a nested
    ``$schema`` (another dialect) is never taken apart.
    """
    pending: list[Any] = [schema]
    while pending:
        node = pending.pop()
        if isinstance(node, bool):
            continue
        if not isinstance(node, dict) or (node is not schema and "$schema" in node):
            return False
        shallow = _shape(node)
        for key in _SUBSCHEMA_MAPS:
            value = node.get(key)
            if isinstance(value, dict) and all(isinstance(v, dict | bool) for v in value.values()):
                # the meta-schema checks the names of patternProperties only (as patterns)
                names = value if key == "patternProperties" else ["_"] * bool(value)
                shallow[key] = dict.fromkeys(names, True)
                pending.extend(value.values())
        for key in _SUBSCHEMA_ONE:
            value = node.get(key)
            if isinstance(value, dict | bool):
                shallow[key] = True
                pending.append(value)
        for key in _SUBSCHEMA_LISTS:
            value = node.get(key)
            if isinstance(value, list) and all(isinstance(v, dict | bool) for v in value):
                shallow[key] = [True] * len(value)
                pending.extend(value)
        key = canonical_json(shallow)
        if _VALID_NODES.get(key):
            continue
        if not _meta_2020_12().is_valid(shallow):
            return False
        _VALID_NODES.put(key, True)
    return True


def _shape(node: dict[str, Any]) -> dict[str, Any]:
    """*node* with what the meta-schema does not look into made alike: free texts empty,
    ``default``/``const``/``enum``/``examples`` values dropped, ``x-`` extensions removed."""
    shape: dict[str, Any] = {}
    for key, value in node.items():
        if key.startswith("x-"):
            continue
        if key in _FREE_TEXTS and isinstance(value, str):
            value = ""
        elif key in _ANY_VALUE:
            value = None
        elif (key in _ANY_LIST and isinstance(value, list)) or (key == "required" and _unique_texts(value)):
            value = []
        shape[key] = value
    return shape


def _unique_texts(value: Any) -> bool:
    return (
        isinstance(value, list) and all(isinstance(v, str) for v in value) and len(set(value)) == len(value)
    )


def compiled_validator(schema: dict[str, Any], key: str | None = None) -> Validator:
    """Return a validator for *schema*, compiled once per *key* (default: its fingerprint)."""
    cache_key = key if key is not None else fingerprint_of(schema)
    validator = _VALIDATORS.get(cache_key)
    return validator if validator is not None else _VALIDATORS.put(cache_key, _compile(schema))


def _compile(schema: dict[str, Any]) -> Validator:
    from jsonschema import Draft202012Validator
    from jsonschema.validators import validator_for

    cls = _linear_time(validator_for(schema, default=Draft202012Validator))
    return cls(schema, registry=_no_retrieval(), format_checker=cls.FORMAT_CHECKER)


_LINEAR: dict[type[Validator], type[Validator]] = {}


def _linear_time(cls: type[Validator]) -> type[Validator]:
    """*cls* with ``pattern`` and ``patternProperties`` matched in linear time (see
    :mod:`.patterns`): a remote document's regex can never stall the event loop."""
    extended = _LINEAR.get(cls)
    if extended is None:
        import jsonschema.validators

        extended = _LINEAR[cls] = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
            cls, {"pattern": _pattern, "patternProperties": _pattern_properties}
        )
    return extended


def _pattern(validator: Validator, pattern: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not search(pattern, instance):
        from jsonschema.exceptions import ValidationError

        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(
    validator: Validator, patterns: dict[str, Any], instance: Any, schema: Any
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            if search(pattern, key):
                yield from validator.descend(  # type: ignore[attr-defined]
                    value, subschema, path=key, schema_path=pattern
                )


def response_errors(schema: dict[str, Any], instance: Any, *, key: str) -> list[str]:
    """:func:`validation_errors` of *instance* against *schema* (compiled once per *key*),
    answered at once when the compiled fast check finds it valid (see :mod:`.fast_check`)."""
    if fast_is_valid(schema, key, instance):
        return []
    return validation_errors(compiled_validator(schema, key=key), instance)


def _json_data_problem(schema: dict[str, Any]) -> str | None:
    """What keeps *schema* from being plain JSON data within the depth limit, if anything."""
    pending: list[tuple[Any, int, str]] = [(schema, 1, "")]
    while pending:
        value, depth, where = pending.pop()
        if isinstance(value, dict | list) and depth > MAX_SCHEMA_DEPTH:
            return f"is nested deeper than {MAX_SCHEMA_DEPTH} levels (at {where or '<root>'})"
        if isinstance(value, dict):
            for name, item in value.items():
                if not isinstance(name, str):
                    return f"has a key that is not a string at {where or '<root>'}: {name!r}"
                pending.append((item, depth + 1, f"{where}/{name}"))
        elif isinstance(value, list):
            pending.extend((item, depth + 1, f"{where}/{i}") for i, item in enumerate(value))
        elif isinstance(value, float) and not math.isfinite(value):
            return f"has a number that is not finite at {where}: {value!r}"
    return None
