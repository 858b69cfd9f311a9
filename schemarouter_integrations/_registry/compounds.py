"""Compounds: a question word written closed up ("energyabovehull") read as the words of the
registered fields' names it joins ("energy above hull").

A question word of 6 letters or more (letters only, of a spaced script) splits when it is
no word of any field's name itself and it is a run of such words, each of 3 letters or
more, the last possibly inflected ("spacegroups" -> space, groups); of several runs, the
one with the longest first word is taken. The vocabulary is the name words of the
registered fields and their aliases (:meth:`.fieldwords.FieldWordIndex.is_name_word`), so a
word splits only into words the documents use, and a field named by the closed-up word
itself ("bandgap") keeps it whole. The documents' own words are the dictionary: no
segmentation library is needed, nor would a general one know a document's words.

A compound of two name words is also met by field-word matching without splitting (a word
that begins with one name word and ends with another meets both weakly, see
:mod:`.fieldwords`); splitting turns it into the exact surface it spells, and reads
compounds of three words or more.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .._text import is_unspaced_char

PART_MIN_LETTERS = 3
MAX_PARTS = 4
_WORD = re.compile(r"\b[^\W\d_]{6,}\b")


def split_compounds(text: str, known: Callable[[str], bool]) -> str:
    """*text* (normalised) with each closed-up compound of *known* words split by spaces."""
    return _WORD.sub(lambda m: split_word(m.group(), known), text)


def split_word(word: str, known: Callable[[str], bool]) -> str:
    """*word*, or its parts joined by spaces when it is a compound (see the module docstring)."""
    if known(word) or any(is_unspaced_char(c) for c in word):
        return word
    parts = _parts(word, known, MAX_PARTS)
    return " ".join(parts) if parts else word


def _parts(word: str, known: Callable[[str], bool], most: int) -> list[str] | None:
    """*word* as a run of at least two and at most *most* known words, longest first word first."""
    if most < 2:
        return None
    for cut in range(len(word) - PART_MIN_LETTERS, PART_MIN_LETTERS - 1, -1):
        head, tail = word[:cut], word[cut:]
        if not known(head):
            continue
        if known(tail):
            return [head, tail]
        rest = _parts(tail, known, most - 1)
        if rest:
            return [head, *rest]
    return None
