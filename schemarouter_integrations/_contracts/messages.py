"""Readable messages of JSON Schema failures: what a model or an application reads.

:func:`validation_errors` lists a value's first few errors with their JSON locations;
:func:`argument_problem` gives the one short reason arguments break an input schema, in words
(``argument 'nsites' is a list; this route takes an integer``), never the schema itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError
    from jsonschema.protocols import Validator

__all__ = ["argument_problem", "validation_errors"]


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


_JSON_TYPES = {"string": "a string", "integer": "an integer", "number": "a number", "boolean": "a boolean",
               "array": "a list", "object": "an object"}  # fmt: skip
_MAX_REASON_CHARS = 160


def argument_problem(validator: Validator, arguments: Any) -> str | None:
    """One short reason why *arguments* break the input schema, or None when they fit.

    A value of the wrong kind reads ``argument 'nsites' is a list; this route takes an
    integer``; other failures read ``<location>: <the validator's message>``, shortened, never
    the schema itself.
    """
    try:
        error = next(iter(validator.iter_errors(arguments)), None)
    except RecursionError:
        return "the arguments are nested too deeply to validate"
    if error is None:
        return None
    path = list(error.absolute_path)
    if not path:
        return _shortened(error.message)
    name = path[0]
    value = arguments.get(name) if isinstance(arguments, dict) else None
    where = "/".join(str(p) for p in path)
    if len(path) == 1 and error.validator in ("type", "anyOf", "oneOf"):
        wanted = _kinds(error.schema)
        kind = _kind_of(value)
        if wanted and not _among(kind, wanted):
            return f"argument {name!r} is {kind}; this route takes {wanted}"
        inner = _inner_reason(error)  # the right kind, refused for another reason (pattern, enum)
        if inner is not None:
            return f"{where}: " + _shortened(inner.message)
    return f"{where}: " + _shortened(error.message)


def _among(kind: str, wanted: str) -> bool:
    """Whether *kind* (``a list of strings``) is one of *wanted* (``a string or a list``)."""
    base = "a list" if kind.startswith("a list") else kind
    return base in wanted.split(" or ")


def _inner_reason(error: ValidationError) -> ValidationError | None:
    """Of the alternatives *error* tried, the first that failed for a reason other than the
    value's type, or None."""
    for inner in error.context or ():
        if inner.validator not in ("type", "anyOf", "oneOf"):
            return inner
    return None


def _kinds(schema: Any) -> str:
    """The JSON types *schema* accepts but null, in words (``a string or a list``), or ``""``."""
    found: list[str] = []
    pending = [schema]
    while pending:
        node = pending.pop()
        if not isinstance(node, dict):
            continue
        kind = node.get("type")
        for k in [kind] if isinstance(kind, str) else kind if isinstance(kind, list) else ():
            if k in _JSON_TYPES and _JSON_TYPES[k] not in found:
                found.append(_JSON_TYPES[k])
        for key in ("oneOf", "anyOf"):
            options = node.get(key)
            pending.extend(reversed(options) if isinstance(options, list) else ())
    return " or ".join(found)


def _kind_of(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, list | tuple):
        inner = {_kind_of(v) for v in value}
        if len(inner) != 1:
            return "a list"
        single = inner.pop()
        if single.startswith(("a ", "an ")) and " " not in single.split(" ", 1)[1]:
            return f"a list of {single.split(' ', 1)[1]}s"  # a list of integers
        return "a list"  # of nulls, of lists, ...
    for kind, words in (
        (str, "a string"), (int, "an integer"), (float, "a number"), (dict, "an object"),
    ):  # fmt: skip
        if isinstance(value, kind):
            return words
    return "null" if value is None else f"a {type(value).__name__}"


def _shortened(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= _MAX_REASON_CHARS else line[: _MAX_REASON_CHARS - 1] + "…"
