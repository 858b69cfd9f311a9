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
phrase after its first "of" opens with a determiner or a referring word ("the", "that",
"those", "their", ...); that phrase's words are the labels. A question that writes a value
("band gap of the stable polymorph of Si" with ``formula="Si"``) keeps every word.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .._text import normalise
from .argument_words import value_words

_WORDS = re.compile(r"\w+")
_DETERMINERS = frozenset({"the", "that", "those", "these", "this", "their", "its", "his", "her", "our"})


def referent_words(query: str, arguments: Mapping[str, Any]) -> frozenset[str]:
    """The words of *query* that describe the values of *arguments* it refers back to
    (see the module docstring); empty when the rule does not apply."""
    if not arguments:
        return frozenset()
    tokens = _WORDS.findall(normalise(query))
    if "of" not in tokens or not value_words(arguments).isdisjoint(tokens):
        return frozenset()
    at = tokens.index("of") + 1
    if at >= len(tokens) or tokens[at] not in _DETERMINERS:
        return frozenset()
    return frozenset(tokens[at:])
