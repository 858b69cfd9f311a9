"""The last tier of a plan: the operations that take every argument given.

Argument names given are evidence for the operations that take them. When no route serving
the query's field terms (wholly or in part) passes the planner's checks, the routes that take
every argument given and require no other (``rank.takes_arguments``) are candidates, however
weakly the question's words reach them: "attachments on task 1204" with ``parent=1204`` is
answered by the one listing attachments of a ``parent``, although "task" names another
route's field. They rank by their own words (``rank.rank_of``: the broad-record rule, then
the lexical score of the question's words over their texts), then by the size of their
record (the broadest first: with no word to tell them apart, the operation returning the
most fields answers "how many O2 polymorphs are there" with ``formula=O2``), then as
``rank.rank_of`` goes on.

A word that names nothing anywhere is not a need (it rules no operation out) unless the
question *asks for its value*: a content word of the head phrase of "X of Y" ("lyrics of
track 11dF...", "melting point of Si"). A route of this tier that does not mention such an
asked word (in its own texts, or in its fields' names, aliases and descriptions:
``asked.mentions_word``; "gene id" is mentioned by a ``gene.gene_id`` field) is no
candidate, so such questions keep their refusal naming the word. A word of fewer than 3
letters (the "G" of "G_VRH") is too short to rule an operation out.
Framing words ("describe", "details of") are stop words and never asked
(``_registry/words.py``).

The tier is tried only when the question writes a value it is given ("task 1204" with
``parent="1204"``) or refers back to one ("provenance of that entry"): arguments the
question does not mention are its context ("melting point" asked with a repository's
``owner`` and ``repo``), and words naming nothing keep the refusal.

The tier serves the terms it explains by fields (its need); the other terms are words
labelling the given values ("task" of ``parent=1204``), not missing fields.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from .._registry import Registry
from .._registry.words import QUERY_MIN_LETTERS
from .._text import normalise
from .argument_words import value_words
from .asked import mentions_word
from .named import subject_words
from .need import Need
from .ordering import Candidate, Ordering
from .rank import Scored, rank_of, said_forms, specialised_routes, takes_arguments
from .terms import Term, explain_partial

_WORDS = re.compile(r"\w+")
_REFERRING = frozenset({"that", "those", "these", "this", "their", "its", "it", "them", "they"})
"""Words by which a question refers back to the values given ("provenance of that entry")."""


def writes_a_value(query: str, arguments: Mapping[str, Any]) -> bool:
    """True when *query* writes a value of *arguments* ("task 1204" with ``parent="1204"``),
    names it otherwise ("gallium" with ``elements=["Ga"]``: ``named.py``), or refers back to
    them ("provenance of that entry", "their structures"): the arguments are what it is
    about, not only its context ("melting point" asked with a repository's ``owner`` and
    ``repo``)."""
    values = value_words(arguments) | _REFERRING | subject_words(query, arguments)
    return any(token in values for token in _WORDS.findall(normalise(query)))


def build_arguments_tier(
    registry: Registry,
    terms: Sequence[Term],
    words: Sequence[Sequence[str]],
    lexical: dict[str, float],
    given: frozenset[str],
    asked: Sequence[Sequence[str]],
) -> Ordering:
    """The ranking of the routes taking every argument *given* (see the
    module docstring); the planner's checks still run on each."""
    found: list[Candidate] = []
    spoken = said_forms(words, frozenset())
    for path in sorted(registry.paths_taking(given)):
        route = registry.route(path)
        if route is None or not takes_arguments(route, given):
            continue
        if not all(mentions_word(route, forms) for forms in asked if len(forms[0]) >= QUERY_MIN_LETTERS):
            continue  # the question asks for a value this operation does not mention
        explained = explain_partial(route, terms) if terms else None
        need = Need.of(explained.pairs) if explained is not None else Need()
        evidence = dict(explained.evidence) if explained is not None else {}
        points = explained.points if explained is not None else 0
        rank = rank_of(Scored(route, points, lexical.get(path, 0.0)), given, False, spoken=spoken)
        found.append(Candidate(route, evidence, need, rank=rank))
    specialised = specialised_routes(((c.route, len(c.need.sids)) for c in found if c.route.identity), words)
    for candidate in found:
        if candidate.route.path in specialised:
            r = candidate.rank
            candidate.rank = (r[0], r[1], 1, *r[3:])
    found.sort(key=broadest_first)
    return Ordering(ranked=found, lexical=lexical)


def broadest_first(candidate: Candidate) -> tuple[object, ...]:
    """The rank, with the route's record size (more fields first) between the operation words
    and the evidence points: with no word to tell them apart, the broadest record answers."""
    r = candidate.rank
    return (*r[:5], -len(candidate.route.endpoint.fields), *r[5:])
