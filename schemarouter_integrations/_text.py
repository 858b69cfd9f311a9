"""Text normalisation shared by field indexing and need extraction."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_SEPARATORS = re.compile(r"[\s_\-]+")
_APOSTROPHES = re.compile(r"['\u2019`]")
_UNSPACED_SCRIPTS = ("CJK", "HANGUL", "HIRAGANA", "KATAKANA", "THAI", "LAO", "KHMER", "MYANMAR")


@lru_cache(maxsize=65536)
def normalise(text: str) -> str:
    """NFKC + casefold, apostrophes dropped, ``_``/``-``/whitespace runs turned into one space."""
    folded = _APOSTROPHES.sub("", unicodedata.normalize("NFKC", text).casefold())
    return _SEPARATORS.sub(" ", folded).strip()


@lru_cache(maxsize=4096)
def is_unspaced_char(char: str) -> bool:
    """True for characters of scripts written without spaces between words (Hangul, CJK, ...).

    Terms in those scripts are matched as substrings, because particles attach to them
    ("탄성계수는"); every other term must sit between word boundaries.
    """
    name = unicodedata.name(char, "")
    return any(script in name for script in _UNSPACED_SCRIPTS)


def is_word_char(char: str) -> bool:
    return char.isalnum() and not is_unspaced_char(char)


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_NON_WORD = re.compile(r"[^0-9a-z]+")


@lru_cache(maxsize=65536)
def name_words(name: str) -> tuple[str, ...]:
    """The lower-case words of an identifier: split at camelCase humps and at every character
    that is no ASCII letter or digit (``_per_page``, ``perPage``, ``page[size]``, ``$select``)."""
    return tuple(w for w in _NON_WORD.split(_CAMEL.sub("_", name).lower()) if w)
