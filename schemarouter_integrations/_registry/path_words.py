"""The words of an operation's path, read once at registration (see ``_planning/returns.py``).

In ``/bioentity/gene/{id}/function`` the segment after the last identifier (its *tail*, the
adapter's ``PATH_TAIL`` note) names what the operation returns, and the segments before
identifiers (``PATH_SEGMENT`` notes) name the kinds of subject. Planning reads both for every
candidate of every cold plan, so a route holds them from the start. So does the set of
parameters that show what kind of value they take (:func:`shown_arguments`), the only ones
whose arguments can be evidence of the subject's kind (``_planning/subject.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._contracts.schemas import PATH_SEGMENT, PATH_TAIL
from .words import text_words, word_forms

PathWords = tuple[frozenset[str], frozenset[str]]
"""The forms of the returned segment's words, and those of the path's other segments."""
NO_PATH_WORDS: PathWords = (frozenset(), frozenset())


def path_words(schema: Mapping[str, Any]) -> PathWords:
    """The :data:`PathWords` of an endpoint's input *schema* (its path parameters' notes)."""
    properties = schema.get("properties")
    if not isinstance(properties, Mapping):
        return NO_PATH_WORDS
    tail: list[str] = []
    kinds: list[str] = []
    for node in properties.values():
        if not isinstance(node, Mapping):
            continue
        segment, after = node.get(PATH_SEGMENT), node.get(PATH_TAIL)
        if isinstance(segment, str):
            kinds.append(segment)
        if isinstance(after, str) and after:
            tail = after.split("/")
    if not tail:
        return NO_PATH_WORDS
    returned = frozenset(form for word in text_words(tail[-1]) for form in word_forms(word))
    others = frozenset(
        form for text in (*tail[:-1], *kinds) for word in text_words(text) for form in word_forms(word)
    )
    return returned, others - returned


def shown_arguments(schema: Mapping[str, Any]) -> frozenset[str]:
    """The names of an input *schema*'s parameters that show the kind of value they take:
    example values, or the path segment before them (``PATH_SEGMENT``)."""
    properties = schema.get("properties")
    if not isinstance(properties, Mapping):
        return frozenset()
    return frozenset(
        name
        for name, node in properties.items()
        if isinstance(node, dict)
        and (
            isinstance(node.get(PATH_SEGMENT), str)
            or (isinstance(node.get("examples"), list) and node["examples"])
        )
    )
