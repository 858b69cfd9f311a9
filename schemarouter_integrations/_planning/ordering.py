"""Candidate orderings per query reading, computed once per registry version.

Every route explains the query's field terms by its fields or as its resource (see
:mod:`.terms`) or does not serve the query. Routes that serve it are ranked by a static key:
evidence points (2 per term served by semantic id, name or as the route's resource, 1 per
alias-only match, +1 for server-side projection; higher first), then lexical score (BM25F of
the query's words over the endpoint's name, keywords, summary and description, see
``_registry/lexicon.py``; higher first), then ``cost_units`` (lower first), then tool and
endpoint name. A route whose need comes out empty, for a query read for its need that has
content words, is a candidate only when its lexical score is positive: an endpoint whose
words and fields match nothing in the query is not chosen merely because it exists.
Request-specific preferences and health are applied on top by the planner, which walks
these lists only as far as it needs to.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from .._registry import FieldMatch, Registry, Route
from .need import Need
from .terms import Term, explain


@dataclass(slots=True)
class Candidate:
    """A route that serves the query, with its own need and the best match for each of its
    semantic ids.

    ``need`` is what the route serves of the query: the semantic ids of the terms it explains
    by fields, not those it explains as its resource. ``evidence`` is what ranks the route;
    the evidence a compiled call records prefers the surface the request used (see the
    planner).
    """

    route: Route
    evidence: dict[str, FieldMatch]
    need: Need = field(default_factory=Need)
    tool: str = field(init=False)
    """The route's tool name (read on every step of a walk, so stored, not derived)."""
    provider: str | None = field(init=False)

    def __post_init__(self) -> None:
        self.tool = self.route.tool.name
        self.provider = self.route.provider


@dataclass(slots=True)
class Ordering:
    """Ranked candidates for one reading, indexed by tool and by provider."""

    ranked: list[Candidate] = field(default_factory=list)
    by_tool: dict[str, list[Candidate]] = field(default_factory=dict)
    by_provider: dict[str | None, list[Candidate]] = field(default_factory=dict)
    refused: list[tuple[str, str, str]] = field(default_factory=list)
    """Routes looked at that serve nothing of the reading, with the reason."""
    unseen: Callable[[], list[tuple[str, str, str]]] | None = None
    """The reasons of the routes the candidate index ruled out unseen (computed when asked)."""
    _not_serving: list[tuple[str, str, str]] | None = None

    @property
    def not_serving(self) -> list[tuple[str, str, str]]:
        """Every route that does not serve the reading, with its reason, sorted (built on
        first use: a plan reads it only when its rejections are read)."""
        if self._not_serving is None:
            rows = list(self.refused)
            if self.unseen is not None:
                rows.extend(self.unseen())
            self._not_serving = sorted(rows)
        return self._not_serving

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
    terms: Sequence[Term],
    words: Sequence[Sequence[str]] = (),
    *,
    restrict: bool = False,
) -> Ordering:
    """The :class:`Ordering` of every route for the field *terms* and query *words*.

    *words* are the forms of each ranking word (see ``Reading``); with *restrict* (a query
    read for its need) routes whose need is empty and whose lexical score is zero are left
    out when there are words. The planner keeps orderings in its cache until the contracts
    change.
    """
    lexical = registry.lexicon.scores(words) if words else {}
    restrict = restrict and bool(words)
    ordering = Ordering()
    scored: list[tuple[tuple[int, float, float, str, str], Candidate]] = []
    last: tuple[tuple[tuple[str, str], ...], Need] = ((), Need())
    possible = _possible(registry, terms, lexical, restrict)
    if possible is None:
        routes: Iterable[Route] = registry.routes()
    else:
        routes = [route for path in sorted(possible) if (route := registry.route(path)) is not None]
        ordering.unseen = lambda: [
            _refusal(route, terms, restrict) for route in registry.routes() if route.path not in possible
        ]
    for route in routes:
        words_score = lexical.get(route.path, 0.0)
        if restrict and not terms and words_score <= 0.0:
            ordering.refused.append((route.tool.name, route.endpoint.name, NO_WORD_MATCHES))
            continue
        explained = explain(route, terms)
        if isinstance(explained, list):
            ordering.refused.append(_no_field(route, explained))
            continue
        pairs, evidence, points = explained
        if restrict and not pairs and words_score <= 0.0:
            ordering.refused.append((route.tool.name, route.endpoint.name, NO_WORD_MATCHES))
            continue
        if pairs != last[0]:  # neighbouring routes mostly read the query alike
            last = (pairs, Need.of(pairs))
        need = last[1]
        rank = (
            -(route.projection_bonus + points),
            -words_score,
            route.endpoint.cost_units,
            route.tool.name,
            route.endpoint.name,
        )
        scored.append((rank, Candidate(route, evidence, need)))
    scored.sort(key=lambda item: item[0])
    for _, candidate in scored:
        ordering.ranked.append(candidate)
        ordering.by_tool.setdefault(candidate.tool, []).append(candidate)
        ordering.by_provider.setdefault(candidate.provider, []).append(candidate)
    return ordering


def _possible(
    registry: Registry, terms: Sequence[Term], lexical: dict[str, float], restrict: bool
) -> set[str] | None:
    """The paths that can serve the reading at all (None: every route may).

    A route explains a term by its fields (it holds the term's match keys: the field index
    knows which routes do) or as its resource (then a word of the term is one of its words:
    the lexical postings know which routes hold it). Routes outside this set are ruled out
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
        for part in term.parts:
            for form in part.forms:
                serving.update(registry.lexicon.paths_with(form))
        possible = serving if possible is None else possible & serving
        if not possible:
            break
    return possible


def _no_field(route: Route, missing: list[str]) -> tuple[str, str, str]:
    names = ", ".join(map(repr, missing))
    return (
        route.tool.name,
        route.endpoint.name,
        f"exposes no field for {names} (no matching semantic id, name or alias)",
    )


def _refusal(route: Route, terms: Sequence[Term], restrict: bool) -> tuple[str, str, str]:
    """Why a route ruled out unseen serves nothing of the reading."""
    if not terms:
        return (route.tool.name, route.endpoint.name, NO_WORD_MATCHES)
    explained = explain(route, terms)
    if isinstance(explained, list):
        return _no_field(route, explained)
    return (route.tool.name, route.endpoint.name, NO_WORD_MATCHES)  # pragma: no cover - not possible
