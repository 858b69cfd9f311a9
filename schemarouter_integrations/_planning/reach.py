"""Which routes can serve a reading at all, and the evidence points of the common case.

Helpers of ``ordering.py``: the candidate index look-up (:func:`possible_paths`: routes outside it
are ruled out unseen), the routes taking every argument given when few do (:func:`specific`),
and the points of a route whose fields serve every one-id term (:func:`points`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .._registry import FieldMatch, Registry, surface_key
from .terms import Term

SPECIFIC_SHARE = 0.25
"""Arguments taken by at most this share of the registered routes are specific evidence."""


def specific(registry: Registry, given: frozenset[str]) -> set[str]:
    """The routes taking every argument *given*, when few routes do (else none)."""
    taking = registry.paths_taking(given)
    return taking if len(taking) <= SPECIFIC_SHARE * registry.route_count() else set()


OneField = tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]
"""Per term ``(sid, match key)``, and the need pairs ``(sid, term key)`` (see :func:`by_one_field`)."""


def by_one_field(terms: Sequence[Term]) -> OneField | None:
    """The terms' keys when each term has one semantic id (the common case), else None."""
    if not terms or any(len(term.sid_keys) != 1 for term in terms):
        return None
    return tuple(term.sid_keys[0] for term in terms), tuple((term.sids[0], term.key) for term in terms)


def points_of(matches: dict[str, FieldMatch], keys: tuple[tuple[str, str], ...]) -> int | None:
    """The evidence points of a route whose fields serve every one-id term (as
    :func:`~.terms.explain` counts them), or None when a term is not served by a field (the
    general walk then decides: a resource reading, or what is missing)."""
    seen: set[str] = set()
    points = 0
    for sid, key in keys:
        match = matches.get(key)
        if match is None:
            return None
        if sid not in seen:
            seen.add(sid)
            points += 1 if match.kind == "alias" else 2
    return points


def first_matches(matches: dict[str, FieldMatch], keys: tuple[tuple[str, str], ...]) -> dict[str, FieldMatch]:
    """Semantic id -> the match of its first term (the evidence :func:`~.terms.explain` builds)."""
    evidence: dict[str, FieldMatch] = {}
    for sid, key in keys:
        evidence.setdefault(sid, matches[key])
    return evidence


def possible_paths(
    registry: Registry, terms: Sequence[Term], lexical: dict[str, float], restrict: bool
) -> set[str] | None:
    """The paths that can serve the reading at all (None: every route may).

    A route explains a term by its fields (it holds the term's match keys: the field index
    knows which routes do) or as its resource (then a word of the term is one of its words:
    the lexical postings know which routes hold it), or, for a term read through a field's
    words, by its own fields for the term's words (the routes holding a word's match keys).
    Routes outside this set are ruled out
    without being looked at, so a cold plan costs the routes that could answer, not the
    registry's size.
    """
    index = registry.index
    if not terms:
        return set(lexical) if restrict else None
    possible: set[str] | None = None
    for term in terms:
        by_fields: set[str] | None = None
        for _, key in term.sid_keys:
            paths = index.routes_by_key.get(key, set())
            by_fields = set(paths) if by_fields is None else by_fields & paths
        serving = by_fields or set()
        for sid in term.alternatives:
            serving.update(index.routes_by_key.get(surface_key(sid), ()))
        for part in term.parts:
            if part.key and len(term.parts) > 1:  # a word naming a field alone: that route's own reading
                serving.update(index.routes_by_key.get(part.key, ()))
            for form in part.forms:
                serving.update(registry.lexicon.paths_with(form))
            if term.by_words:
                for _, key in part.sid_keys:
                    serving.update(index.routes_by_key.get(key, ()))
        possible = serving if possible is None else possible & serving
        if not possible:
            break
    return possible
