"""Rule 4 of ranking, *returns*: what an operation's path says it returns.

In a path like ``/bioentity/gene/{id}/function`` the segment before the identifier names the
kind of subject (a gene) and the segments after it name what the operation returns of that
subject (its functions); ``/bioentity/function/{id}/genes`` returns genes of a function. The
adapter carries both as notes on the path parameter (``PATH_SEGMENT``, ``PATH_TAIL``).

An operation whose returned segment (the last one) the question does not say, while a word
the question does say is another segment of its path (its subject's kind, or a segment that
qualifies what it returns), answers about something else than what was asked: "GO functions
of FBN1" says "function", the subject's kind of ``/function/{id}/genes``, not the "genes" it
returns; "orthologs of FBN1" says "ortholog" of ``/gene/{id}/ortholog/diseases``, which
returns diseases. Such an operation ranks after the others (part 1; the others 0). Only the
question's own words count (argument names are the subject's, see ``reading.py``); an
operation without a literal segment after its last path parameter is not judged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._bounded import BoundedCache
from .._contracts.schemas import PATH_SEGMENT, PATH_TAIL
from .._registry import Route, text_words, word_forms

Segments = tuple[frozenset[str], frozenset[str]]
"""The forms of the returned segment's words, and those of the path's other segments."""
_NONE: Segments = (frozenset(), frozenset())
_SEGMENTS: BoundedCache[str, Segments] = BoundedCache(16384)
"""Per endpoint fingerprint: a pure memo that can never go stale."""


def returns_part(route: Route, spoken: frozenset[str]) -> int:
    """1 when *route* returns something the question (the forms of its words, *spoken*) does
    not say while naming another segment of its path; else 0 (see the module docstring)."""
    if not spoken:
        return 0
    returned, about = path_segments(route)
    if not returned or not returned.isdisjoint(spoken):
        return 0
    return 0 if about.isdisjoint(spoken) else 1


def path_segments(route: Route) -> Segments:
    """The forms of the words of *route*'s returned segment and of its other path segments."""
    found = _SEGMENTS.get(route.endpoint_fingerprint)
    if found is None:
        found = _SEGMENTS.put(route.endpoint_fingerprint, _read(route.endpoint.input_schema))
    return found


def _read(schema: Mapping[str, Any]) -> Segments:
    properties = schema.get("properties")
    if not isinstance(properties, Mapping):
        return _NONE
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
        return _NONE
    returned = frozenset(form for word in text_words(tail[-1]) for form in word_forms(word))
    others = frozenset(
        form for text in (*tail[:-1], *kinds) for word in text_words(text) for form in word_forms(word)
    )
    return returned, others - returned
