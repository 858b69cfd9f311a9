"""Words that label the values a question refers back to.

A follow-up question often names its subject by a description of values given with it
rather than by the values themselves: "band gaps of *the similar materials*" with
``material_ids=[...]`` (the ids of the materials found similar), "dielectric constant of *the
stable one*", "orthologs of *that gene*". The words of such a subject describe what the
arguments already pin down; read as fields they would turn into needs ("similar" into a
similarity field, "stable" into a stability flag) and send the question to another
operation. So they are scope words (see ``reading.py``): no need, no ranking word, never
unmatched.

The rule: the request gives arguments, the question writes none of their values, and the
phrase after its first "of" refers to them: it opens with a referring word ("that", "those",
"their", ...), or it opens with "the" and says "one"/"ones" or a word an argument's name
begins ("materials" for ``material_ids``); that phrase's words are the labels. A question
that writes a value ("band gap of the stable polymorph of Si" with ``formula="Si"``), or
whose phrase names something else ("titles of the pull requests" with ``owner`` and
``repo``), keeps every word.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .._registry import CONTRACT_MIN_LETTERS
from .._text import normalise
from .argument_words import name_words, value_words

_WORDS = re.compile(r"\w+")
_REFERRING = frozenset({"that", "those", "these", "this", "their", "its", "his", "her", "our"})
_ONE = frozenset({"one", "ones"})


def referent_words(query: str, arguments: Mapping[str, Any]) -> frozenset[str]:
    """The words of *query* that describe the values of *arguments* it refers back to
    (see the module docstring); empty when the rule does not apply."""
    if not arguments:
        return frozenset()
    tokens = _WORDS.findall(normalise(query))
    if "of" not in tokens or not value_words(arguments).isdisjoint(tokens):
        return frozenset()
    at = tokens.index("of") + 1
    phrase = tokens[at:]
    if not phrase:
        return frozenset()
    if phrase[0] in _REFERRING:
        return frozenset(phrase)
    if phrase[0] != "the":
        return frozenset()
    stems = [w for name in arguments for w in name_words(name) if len(w) >= CONTRACT_MIN_LETTERS]
    if any(w in _ONE or any(w.startswith(stem) for stem in stems) for w in phrase):
        return frozenset(phrase)
    return frozenset()
