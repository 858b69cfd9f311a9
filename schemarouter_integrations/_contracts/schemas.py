"""JSON Schema checks for contracts, with one compiled validator per schema fingerprint."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import jsonschema
import jsonschema.validators
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator
from jsonschema.validators import validator_for
from referencing import Registry

from .._bounded import BoundedCache
from .fingerprint import fingerprint_of
from .patterns import pattern_problem, patterns_in, search
from .references import reference_problem

_VALIDATORS: BoundedCache[str, Validator] = BoundedCache(4096)
"""Compiled validators by schema fingerprint (or caller's key); pure memo, oldest leave first."""
MAX_SCHEMA_DEPTH = 64
"""Deepest nesting of objects and arrays a contract schema may have (real schemas stay far below)."""

_NO_RETRIEVAL: Registry[Any] = Registry()
"""References resolve inside the schema only: validation never fetches anything."""

_CHECKED: BoundedCache[str, bool] = BoundedCache(4096)
"""Fingerprints of schemas already found valid."""


def check_schema(schema: dict[str, Any], *, what: str) -> None:
    """Raise ``ValueError`` naming *what* when *schema* is not a valid, self-contained JSON Schema.

    The schema must be JSON data nested at most :data:`MAX_SCHEMA_DEPTH` deep, valid against
    its meta-schema, and its references must resolve inside it without an endless in-place
    cycle (see :mod:`.references`). Schemas already found valid are remembered by
    fingerprint, so large OpenAPI documents with many shared schemas are checked once per
    distinct schema.
    """
    if not isinstance(schema, dict):
        raise ValueError(f"{what} must be a JSON Schema object, got {type(schema).__name__}")
    try:
        key = fingerprint_of(schema)
    except ValueError as exc:
        raise ValueError(f"{what} is not JSON data: {exc}") from None
    if _CHECKED.get(key):
        return
    problem = _json_data_problem(schema)
    if problem is not None:
        raise ValueError(f"{what} {problem}")
    cls = validator_for(schema, default=jsonschema.Draft202012Validator)
    try:
        cls.check_schema(schema)
    except jsonschema.SchemaError as exc:
        location = "/".join(str(p) for p in exc.absolute_path) or "<root>"
        raise ValueError(f"{what} is not a valid JSON Schema at {location}: {exc.message}") from exc
    problem = reference_problem(schema)
    if problem is not None:
        raise ValueError(f"{what} is not usable: {problem}")
    for where, pattern in patterns_in(schema):
        problem = pattern_problem(pattern)
        if problem is not None:
            raise ValueError(f"{what} is not usable at {where or '<root>'}: {problem}")
    _CHECKED.put(key, True)


def compiled_validator(schema: dict[str, Any], key: str | None = None) -> Validator:
    """Return a validator for *schema*, compiled once per *key* (default: its fingerprint)."""
    cache_key = key if key is not None else fingerprint_of(schema)
    validator = _VALIDATORS.get(cache_key)
    return validator if validator is not None else _VALIDATORS.put(cache_key, _compile(schema))


def _compile(schema: dict[str, Any]) -> Validator:
    cls = _linear_time(validator_for(schema, default=jsonschema.Draft202012Validator))
    return cls(schema, registry=_NO_RETRIEVAL, format_checker=cls.FORMAT_CHECKER)


_LINEAR: dict[type[Validator], type[Validator]] = {}


def _linear_time(cls: type[Validator]) -> type[Validator]:
    """*cls* with ``pattern`` and ``patternProperties`` matched in linear time (see
    :mod:`.patterns`): a remote document's regex can never stall the event loop."""
    extended = _LINEAR.get(cls)
    if extended is None:
        extended = _LINEAR[cls] = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
            cls, {"pattern": _pattern, "patternProperties": _pattern_properties}
        )
    return extended


def _pattern(validator: Validator, pattern: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not search(pattern, instance):
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


def validation_errors(validator: Validator, instance: Any, *, limit: int = 5) -> list[str]:
    """Readable messages of the first *limit* errors, each with its JSON location.

    A value nested too deeply to validate (a deep response against a recursive schema) is
    one error, never a ``RecursionError``.
    """
    messages: list[str] = []
    try:
        for error in validator.iter_errors(instance):
            location = "/".join(str(p) for p in error.absolute_path)
            messages.append(f"{location or '<root>'}: {error.message}")
            if len(messages) >= limit:
                break
    except RecursionError:
        messages.append("<root>: the value is nested too deeply to validate")
    return messages


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
