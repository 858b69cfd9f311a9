"""JSON Schema checks for contracts, with one compiled validator per schema fingerprint."""

from __future__ import annotations

from typing import Any

import jsonschema
from jsonschema.protocols import Validator
from jsonschema.validators import validator_for

from .fingerprint import fingerprint_of

_VALIDATORS: dict[str, Validator] = {}
_MAX_CACHED = 4096


_CHECKED: set[str] = set()


def check_schema(schema: dict[str, Any], *, what: str) -> None:
    """Raise ``ValueError`` naming *what* when *schema* is not a valid JSON Schema.

    Schemas already found valid are remembered by fingerprint, so large OpenAPI documents
    with many shared schemas are meta-validated once per distinct schema.
    """
    if not isinstance(schema, dict):
        raise ValueError(f"{what} must be a JSON Schema object, got {type(schema).__name__}")
    key = fingerprint_of(schema)
    if key in _CHECKED:
        return
    cls = validator_for(schema, default=jsonschema.Draft202012Validator)
    try:
        cls.check_schema(schema)
    except jsonschema.SchemaError as exc:
        location = "/".join(str(p) for p in exc.absolute_path) or "<root>"
        raise ValueError(f"{what} is not a valid JSON Schema at {location}: {exc.message}") from exc
    if len(_CHECKED) >= _MAX_CACHED:
        _CHECKED.clear()
    _CHECKED.add(key)


def compiled_validator(schema: dict[str, Any], key: str | None = None) -> Validator:
    """Return a validator for *schema*, compiled once per *key* (default: its fingerprint)."""
    cache_key = key if key is not None else fingerprint_of(schema)
    validator = _VALIDATORS.get(cache_key)
    if validator is None:
        cls = validator_for(schema, default=jsonschema.Draft202012Validator)
        validator = cls(schema, format_checker=cls.FORMAT_CHECKER)
        if len(_VALIDATORS) >= _MAX_CACHED:
            _VALIDATORS.clear()
        _VALIDATORS[cache_key] = validator
    return validator


def validation_errors(validator: Validator, instance: Any, *, limit: int = 5) -> list[str]:
    """Readable messages of the first *limit* errors, each with its JSON location."""
    messages: list[str] = []
    for error in validator.iter_errors(instance):
        location = "/".join(str(p) for p in error.absolute_path)
        messages.append(f"{location or '<root>'}: {error.message}")
        if len(messages) >= limit:
            break
    return messages
