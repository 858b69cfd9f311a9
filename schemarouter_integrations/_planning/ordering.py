"""Candidate orderings per data need and query words, computed once per registry version.

For a need, every route that serves it is ranked by a static key: evidence score (2 per
needed field served by semantic id or name, 1 per alias-only match, +1 for server-side
projection; higher first), then lexical score (BM25 of the query's words over the endpoint's
name, description and keywords, see ``_registry/lexicon.py``; higher first), then
``cost_units`` (lower first), then tool and endpoint name. With an empty need read from a
query that has content words, only routes whose lexical score is positive are candidates:
an endpoint that matches nothing in the query is not chosen merely because it exists.
Request-specific preferences and health are applied on top by the planner, which walks
these lists only as far as it needs to.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from .._registry import FieldMatch, Registry, Route, surface_key


@dataclass(slots=True)
class Candidate:
    """A route that serves the whole need, with the best match for each semantic id.

    ``evidence`` is what ranks the route; the evidence a compiled call records prefers the
    surface the request used (see the planner).
    """

    route: Route
    evidence: dict[str, FieldMatch]
    tool: str = field(init=False)
    """The route's tool name (read on every step of a walk, so stored, not derived)."""
    provider: str | None = field(init=False)

    def __post_init__(self) -> None:
        self.tool = self.route.tool.name
        self.provider = self.route.provider


@dataclass(slots=True)
class Ordering:
    """Ranked candidates for one need, indexed by tool and by provider."""

    ranked: list[Candidate] = field(default_factory=list)
    by_tool: dict[str, list[Candidate]] = field(default_factory=dict)
    by_provider: dict[str | None, list[Candidate]] = field(default_factory=dict)
    not_serving: list[tuple[str, str, str]] = field(default_factory=list)

    def in_order(self, preferred: Sequence[str]) -> Iterator[Candidate]:
        """Every candidate: *preferred* tools first (in their order), then by rank."""
        return self._walk(preferred, self.ranked, None)

    def of_provider(self, provider: str, preferred: Sequence[str]) -> Iterator[Candidate]:
        """The candidates of *provider*, preferred tools first, then by rank."""
        return self._walk(preferred, self.by_provider.get(provider, []), provider)

    def _walk(
        self, preferred: Sequence[str], pool: list[Candidate], provider: str | None
    ) -> Iterator[Candidate]:
        named = set(preferred)
        for tool in dict.fromkeys(preferred):
            for candidate in self.by_tool.get(tool, ()):
                if provider is None or candidate.provider == provider:
                    yield candidate
        for candidate in pool:
            if candidate.tool not in named:
                yield candidate


NO_WORD_MATCHES = (
    "matches nothing in the query: no field for its words, and none of them in the endpoint's "
    "name, description or keywords"
)


def build_ordering(
    registry: Registry,
    need: tuple[str, ...],
    words: Sequence[Sequence[str]] = (),
    *,
    restrict: bool = False,
) -> Ordering:
    """The :class:`Ordering` of every route for the semantic ids *need* and query *words*.

    *words* are the forms of each ranking word (see ``Reading``); with *restrict* (an
    empty need read from a query with content words) routes scoring zero are left out. The
    ranking depends on the semantic ids and words only, not on the surfaces that named the
    ids; the planner keeps orderings in its cache until the contracts change.
    """
    keys = [(sid, surface_key(sid)) for sid in need]
    lexical = registry.lexicon.scores(words) if words else {}
    restrict = restrict and not need and bool(words)
    ordering = Ordering()
    scored: list[tuple[tuple[int, float, float, str, str], Candidate]] = []
    for route in registry.routes():
        words_score = lexical.get(route.path, 0.0)
        if restrict and words_score <= 0.0:
            ordering.not_serving.append((route.tool.name, route.endpoint.name, NO_WORD_MATCHES))
            continue
        evidence: dict[str, FieldMatch] = {}
        missing: list[str] = []
        score = route.projection_bonus
        for sid, key in keys:
            match = route.matches.get(key)
            if match is None:
                missing.append(sid)
            else:
                evidence[sid] = match
                score += 1 if match.kind == "alias" else 2
        if missing:
            names = ", ".join(map(repr, missing))
            ordering.not_serving.append(
                (
                    route.tool.name,
                    route.endpoint.name,
                    f"exposes no field for {names} (no matching semantic id, name or alias)",
                )
            )
            continue
        rank = (-score, -words_score, route.endpoint.cost_units, route.tool.name, route.endpoint.name)
        scored.append((rank, Candidate(route, evidence)))
    scored.sort(key=lambda item: item[0])
    ordering.not_serving.sort()
    for _, candidate in scored:
        ordering.ranked.append(candidate)
        ordering.by_tool.setdefault(candidate.tool, []).append(candidate)
        ordering.by_provider.setdefault(candidate.provider, []).append(candidate)
    return ordering
