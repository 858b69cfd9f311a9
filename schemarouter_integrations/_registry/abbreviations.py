"""Abbreviations a contract spells out itself, learned when a route is registered.

Documents name a quantity one way and questions another: MP's field ``dos`` is described
"Density of states data for the material", and a question asks for the "density of states";
another document names a field ``density_of_states`` and describes it "... (DOS)", and a
question asks for the "DOS". Both are read from the field's own name and description, never
from a table of words:

1. **name -> phrase**: a field whose name is one word of 3 to 6 letters that are the initials
   of consecutive words of its description (every word, or its content words only) is also
   named by those words: ``dos`` -> "density of states".
2. **phrase -> abbreviation**: a description that writes ``words (ABBR)``, where the
   letters of ``ABBR`` (2 to 6) are the initials of the words just before it, names the field
   by ``ABBR`` too.

The learned names are aliases of the field (see :mod:`.routes`), so they reach a question the
way any alias does, and they weigh as aliases do.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .._text import normalise
from .words import STOP_WORDS

MIN_LETTERS = 2
NAME_MIN_LETTERS = 3
MAX_LETTERS = 6
_WORDS = re.compile(r"[^\W\d_]+")
_PARENTHESISED = re.compile(r"\(([A-Z][A-Za-z]{1,5})\)")


@lru_cache(maxsize=65536)
def learned_names(name: str, description: str) -> tuple[str, ...]:
    """The names a field's own *name* and *description* give it besides its name."""
    if not description:
        return ()
    out: list[str] = []
    short = normalise(name)
    if short.isalpha() and NAME_MIN_LETTERS <= len(short) <= MAX_LETTERS:
        phrase = _spelled_out(short, _WORDS.findall(normalise(description)))
        if phrase:
            out.append(phrase)
    for found in _PARENTHESISED.finditer(description):
        abbreviation = found.group(1)
        before = _WORDS.findall(normalise(description[: found.start()]))
        if _spelled_out(abbreviation.casefold(), before, at_end=True):
            out.append(abbreviation)
    return tuple(dict.fromkeys(out))


def _spelled_out(letters: str, words: list[str], *, at_end: bool = False) -> str:
    """The run of *words* (every word, or content words only) whose initials are *letters*
    ("" when none); *at_end*: only the run that ends the words."""
    size = len(letters)
    for pool in (words, [w for w in words if w not in STOP_WORDS]):
        starts = [len(pool) - size] if at_end else range(len(pool) - size + 1)
        for start in starts:
            run = pool[start : start + size] if start >= 0 else []
            if len(run) == size and "".join(w[0] for w in run) == letters:
                return " ".join(run)
    return ""
