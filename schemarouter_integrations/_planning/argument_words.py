"""The words a request's arguments put in its question (names and values).

The reading stage (``reading.py``) treats them as *scope words*: the arguments already say
them, so they are neither needs nor ranking words nor unmatched.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .._text import normalise

_WORDS = re.compile(r"\w+")
_FORMULA = re.compile(r"(?:[A-Z][a-z]?\d*)+")
_ELEMENT = re.compile(r"[A-Z][a-z]?")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
"""Where a camelCase name splits (as contract texts split, ``_registry/words.py``)."""


def argument_words(arguments: Mapping[str, Any]) -> frozenset[str]:
    """The words a request's arguments put in its query: their names and values.

    A name gives its words split at camelCase and snake_case ("createdBefore" -> created,
    before) besides its whole spelling. Values are read recursively (strings, numbers,
    lists, objects); a value written like a chemical formula also gives its element symbols
    ("GaAs" -> gaas, ga, as).
    """
    out: set[str] = set()
    for name, value in arguments.items():
        out.update(name_words(name))
        _value_words(value, out, 0)
    return frozenset(out)


def value_words(arguments: Mapping[str, Any]) -> frozenset[str]:
    """The words of the argument values alone (no names; see :func:`argument_words`)."""
    out: set[str] = set()
    for value in arguments.values():
        _value_words(value, out, 0)
    return frozenset(out)


def name_words(name: str) -> list[str]:
    """The words of an argument name: its normalised words, then those of its camelCase
    parts ("createdBefore" -> createdbefore, created, before), without repeats."""
    return list(
        dict.fromkeys((*_WORDS.findall(normalise(name)), *_WORDS.findall(normalise(_CAMEL.sub(" ", name)))))
    )


def _value_words(value: Any, out: set[str], depth: int) -> None:
    if depth > 8 or value is None or isinstance(value, bool):
        return
    if isinstance(value, str):
        out.update(_WORDS.findall(normalise(value)))
        for part in value.split(","):
            part = part.strip()
            if _FORMULA.fullmatch(part):
                out.update(symbol.casefold() for symbol in _ELEMENT.findall(part))
    elif isinstance(value, (int, float)):
        out.add(str(value).casefold())
    elif isinstance(value, Mapping):
        for item in value.values():
            _value_words(item, out, depth + 1)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _value_words(item, out, depth + 1)
