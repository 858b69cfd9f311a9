"""A compiled fast path for "is this response valid?", with the jsonschema path as the judge.

Checking a response against its output schema with ``jsonschema`` is a large part of a run.
When the optional ``jsonschema-rs`` package is installed (extra ``[fast]``, part of
``[all]``), a schema it can check *exactly like* the jsonschema path gets a compiled Rust
validator, and a response it finds valid is accepted at once. Any other outcome (invalid,
an instance it cannot read, no package) goes to the jsonschema path, which decides and words
the errors, so error messages never change.

Linear time is kept: the Rust validator is built with ``RegexOptions``, jsonschema-rs's
standard ``regex`` engine, which matches in linear time (no look-around, no
back-references; its default engine, ``fancy-regex``, backtracks and is never used). A
schema takes the fast path only when nothing in it could be read differently:

- no ``pattern``/``patternProperties`` regex using escapes (``\\d``, ``\\w``, ``\\b``: Unicode
  classes in Rust, ASCII in RE2), groups with flags (``(?i)``), ``{,n}`` or ``[[`` (read
  differently by the two engines);
- no ``format`` that the jsonschema path asserts (the Rust validator leaves formats alone);
- no reference outside the schema (retrieval raises: validation never does I/O).

One reading differs by design and is documented: Python tuples count as arrays on the fast
path (responses are JSON data; tuples inside records are refused afterwards anyway by the
projection's JSON-data check).
"""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Callable
from typing import Any

from .._bounded import BoundedCache
from .._nodes import objects_in
from .interning import thawed
from .patterns import patterns_in

__all__ = ["HAS_FAST_CHECK", "fast_is_valid"]

HAS_FAST_CHECK = importlib.util.find_spec("jsonschema_rs") is not None
"""Whether jsonschema-rs is installed (it is imported with the first compiled check)."""


@functools.cache
def _rust() -> Any:
    """The ``jsonschema_rs`` module, or None: imported on first use, not with the package."""
    if not HAS_FAST_CHECK:
        return None
    import jsonschema_rs

    return jsonschema_rs


_UNSAFE_IN_PATTERNS = ("\\", "(?", "{,", "[[")


@functools.cache
def _asserted_formats() -> frozenset[str]:
    """Every format some jsonschema draft checker asserts (with the packages installed here)."""
    import jsonschema

    return frozenset(jsonschema.FormatChecker().checkers)


Check = Callable[[Any], bool]
_CHECKS: BoundedCache[str, Check | None] = BoundedCache(4096)
"""Cache key -> the compiled check, or None when the schema stays on the jsonschema path."""


def fast_is_valid(schema: dict[str, Any], key: str, instance: Any) -> bool:
    """True when the compiled check finds *instance* valid; False means "not shown valid"
    (invalid, unreadable, or no fast check for *schema*): ask the jsonschema path."""
    check = _CHECKS.get(key)
    if check is None:
        if key in _CHECKS:
            return False
        check = _CHECKS.put(key, _compile(schema))
        if check is None:
            return False
    try:
        return check(instance)
    except (ValueError, TypeError, OverflowError, RecursionError):
        return False  # not JSON data jsonschema-rs can read: the jsonschema path decides


def _compile(schema: dict[str, Any]) -> Check | None:
    _rs = _rust()
    if _rs is None or not _same_reading(schema):
        return None
    try:
        validator = _rs.validator_for(
            thawed(schema),  # plain dicts and lists: jsonschema-rs reads no subclass of them
            validate_formats=False,
            pattern_options=_rs.RegexOptions(),
            retriever=_no_retrieval,
        )
    except Exception:  # a draft or keyword it does not know: stay on the jsonschema path
        return None
    is_valid: Check = validator.is_valid
    return is_valid


def _same_reading(schema: dict[str, Any]) -> bool:
    for _, pattern in patterns_in(schema):
        if any(token in pattern for token in _UNSAFE_IN_PATTERNS):
            return False
    return not (_formats_in(schema) & _asserted_formats())


def _formats_in(schema: Any) -> set[str]:
    return {value for node in objects_in(schema) if isinstance(value := node.get("format"), str)}


def _no_retrieval(uri: str) -> Any:
    raise ValueError(f"{uri} is outside the schema: validation never fetches anything")
