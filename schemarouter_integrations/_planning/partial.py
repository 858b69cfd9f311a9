"""Partial answers: the routes that serve part of a reading's field terms, in tiers.

Built only when no route serving every term passes the planner's checks (see the planner's
docstring), once per reading while the contracts stay the same (the tiers live on the
reading's :class:`~.ordering.Ordering`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .._registry import FieldMatch, Registry, Route, surface_key
from .need import Need
from .ordering import RANK, Candidate, Ordering
from .rank import Rank, Scored, rank_of
from .terms import Term, explain_partial


class PartialCandidate(Candidate):
    """A candidate of a partial answer (see :func:`build_partial`): the semantic ids it does
    not serve (``missing``), every semantic id asked (``asked``: served by fields or missing,
    in query order) and its ``weight``."""

    __slots__ = ("_asked", "missing", "weight")

    def __init__(
        self,
        route: Route,
        evidence: dict[str, FieldMatch],
        need: Need,
        *,
        rank: Rank,
        missing: tuple[str, ...],
        asked: tuple[str, ...],
        weight: int,
    ) -> None:
        super().__init__(route, evidence, need, rank=rank)
        self.missing = missing
        self._asked = asked
        self.weight = weight

    @property
    def asked(self) -> tuple[str, ...]:
        return self._asked


def build_partial(
    registry: Registry,
    terms: Sequence[Term],
    lexical: dict[str, float],
    given: frozenset[str] = frozenset(),
    said: frozenset[str] | None = None,
    spoken: frozenset[str] = frozenset(),
) -> list[Ordering]:
    """The routes that serve part of the field *terms*, in tiers of equal weight, best first.

    Used only when no route serves every term. A route's *weight* is 2 per semantic id it
    serves of a strong term (named by a field's name, alias or semantic id) and 1 per one of
    a weak term (read only through a field's description words); see
    :func:`~.terms.explain_partial`. Within a tier candidates rank as full ones do
    (:func:`.rank.rank_of` with the request's words *said*, without the broad-record rule). Only the routes
    that hold a match key of a term or one of its words are looked at.
    """
    index = registry.index
    paths: set[str] = set()
    for term in terms:
        for _, key in term.sid_keys:
            paths.update(index.routes_by_key.get(key, ()))
        for sid in term.alternatives:
            paths.update(index.routes_by_key.get(surface_key(sid), ()))
        for part in term.parts:
            if part.key and len(term.parts) > 1:
                paths.update(index.routes_by_key.get(part.key, ()))
            for form in part.forms:
                paths.update(registry.lexicon.paths_with(form))
    found: list[Candidate] = []
    needs: dict[tuple[tuple[str, str], ...], Need] = {}  # routes mostly read the terms alike
    for path in paths:
        route = registry.route(path)
        explained = explain_partial(route, terms) if route is not None else None
        if route is None or explained is None:
            continue
        rank = rank_of(Scored(route, explained.points, lexical.get(path, 0.0)), given, False, said, spoken)
        need = needs.get(explained.pairs)
        if need is None:
            need = needs[explained.pairs] = Need.of(explained.pairs)
        found.append(
            PartialCandidate(
                route,
                explained.evidence,
                need,
                rank=rank,
                missing=explained.missing,
                asked=explained.asked,
                weight=explained.weight,
            )
        )
    by_weight: dict[int, list[Candidate]] = {}
    for candidate in found:
        by_weight.setdefault(candidate.weight, []).append(candidate)
    tiers: list[Ordering] = []
    for weight in sorted(by_weight, reverse=True):
        ranked = by_weight[weight]
        ranked.sort(key=RANK)
        tiers.append(Ordering(ranked=ranked, lexical=lexical))
    return tiers
