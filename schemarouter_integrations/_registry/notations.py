"""Notations: a field's name written short, with some of its words cut to their initial.

A question writes ``energy_above_hull`` as "e_hull", "E hull" or "Ehull": the field's name
words (``energy``, ``hull``; stop words such as "above" are no name words, see
:func:`.words.text_words`) in order, each either whole or cut to its first letter. The rule
reads such a notation from the field's own name, never from a table of symbols:

* the notation is one question word ("ehull"), or a run of adjacent question words (nothing
  between them but separators) of which every word but one is a single letter ("e hull",
  from "e_hull" or "E hull");
* its letters, joined, are the field's name words in order, each whole or by its initial;
  an inner name word may be left out, never the first or the last ("e_hull" is energy, hull
  of ``energy_above_hull``);
* it cuts at least one word to its initial and keeps at least one whole (a run of initials
  alone is an abbreviation, read from descriptions, :mod:`.abbreviations`; a run of whole
  words is the name itself), and the name has two words or more.

A symbol that is not made of the field's words ("Eg" for a band gap) needs knowledge the
documents do not give: the well-known ones of science are in ONE documented data table,
:data:`NOTATIONS` (symbol -> the words it stands for). :func:`spell_notations` writes such a
symbol, a whole question word, as its words before the question is read, and only when every
one of those words is a word of the registered documents (a field's name or description, or
an operation's texts): "Eg of GaN" reads as "band gap of GaN"; a symbol whose words no
document uses stays as written (and is reported unmatched as written).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import pairwise

from .fieldwords import FieldWordIndex

NOTATIONS: dict[str, str] = {
    "eg": "band gap",  # E_g, the band gap energy of a semiconductor
    "e_g": "band gap",
    "ef": "fermi energy",  # E_F
    "e_f": "fermi energy",
    "1d": "one dimensional",
    "2d": "two dimensional",
    "3d": "three dimensional",
}
"""Well-known notations of science and the words they stand for (casefolded symbol, as one
question word; see the module docstring). General science, no provider's vocabulary."""

MAX_NOTATION_WORDS = 3
"""The most question words one notation spans ("e f hull")."""


@lru_cache(maxsize=65536)
def spells(letters: str, names: tuple[str, ...]) -> bool:
    """True when *letters* are *names* in order, each whole or by its initial, at least one
    of each kind, inner names possibly left out (see the module docstring)."""
    if len(names) < 2 or not letters.isalpha():
        return False

    def walk(at: int, word: int, cut: bool, whole: bool) -> bool:
        if word == len(names):
            return at == len(letters) and cut and whole
        name = names[word]
        if letters.startswith(name, at) and walk(at + len(name), word + 1, cut, whole=True):
            return True
        if len(name) > 1 and letters[at : at + 1] == name[0] and walk(at + 1, word + 1, True, whole):
            return True
        return 0 < word < len(names) - 1 and walk(at, word + 1, cut, whole)  # an inner word left out

    return walk(0, 0, cut=False, whole=False)


def notation_readings(
    tokens: Sequence[str],
    content: Sequence[int],
    free: Callable[[int], bool],
    crosses: Callable[[int, int], bool],
    field_words: FieldWordIndex,
) -> list[tuple[list[int], str]]:
    """The notations among the question's *content* word positions (``tokens[i]``), as
    (positions, semantic id), left to right, windows disjoint. Only positions that are
    *free* (no exact surface, no scope word) take part; a window never *crosses* a list
    boundary. Of several fields a window spells, the first semantic id is taken."""
    out: list[tuple[list[int], str]] = []
    taken: set[int] = set()
    for at in range(len(content)):
        for size in range(min(MAX_NOTATION_WORDS, len(content) - at), 0, -1):
            window = list(content[at : at + size])
            if taken & set(window) or not all(free(i) for i in window):
                continue
            if any(b != a + 1 or crosses(a, b) for a, b in pairwise(window)):
                continue
            words = [tokens[i] for i in window]
            longest = max(words, key=len)
            if size > 1 and sum(len(w) > 1 for w in words) != 1:
                continue
            letters = "".join(words)
            sids = sorted(
                profile.first_sid()
                for profile in field_words.candidates(longest)
                if spells(letters, profile.names)
            )
            if sids:
                out.append((window, sids[0]))
                taken.update(window)
                break
    return out


def spell_notations(query: str, known: Callable[[str], bool]) -> str:
    """*query* with each word that is a symbol of :data:`NOTATIONS` written as its words, when
    every one of them is *known* (a word of the registered documents); else unchanged."""

    def spelled(match: re.Match[str]) -> str:
        words = NOTATIONS[match.group().casefold()]
        return words if all(known(word) for word in words.split()) else match.group()

    return _SYMBOL.sub(spelled, query)


_SYMBOLS = "|".join(sorted(map(re.escape, NOTATIONS), key=len, reverse=True))
_SYMBOL = re.compile(rf"(?<![\w.\-])(?:{_SYMBOLS})(?![\w\-]|\.\w)", re.IGNORECASE)
"""A symbol of :data:`NOTATIONS` written as a whole word ("Eg", "E_g"; not "e.g." or "mp-2d")."""
