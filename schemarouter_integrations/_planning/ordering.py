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
from operator import attrgetter

from .._registry import FieldMatch, Registry, Route
from .._registry.path_words import NO_PATH_WORDS
from .need import Need
from .rank import Family, Rank, name_penalty, said_forms, subject_ranks
from .reach import by_one_field, first_matches, points_of, possible_paths, specific
from .returns import returns_part
from .terms import Term, explain

_NO_NEED = Need()
RANK = attrgetter("rank")
_NO_RANK: Rank = (0, 0, 0, 0, 0.0, 0, 0.0, "", "")
Refusal = tuple[int, str, str, str]
"""How far a route is from serving the reading (semantic ids it lacks; more for no word at
all), its tool, endpoint and reason."""
_NO_WORDS = 1 << 20


class Candidate:
    """A route that serves the query, with its own need and the best match for each of its
    semantic ids.

    ``need`` is what the route serves of the query: the semantic ids of the terms it explains
    by fields, not those it explains as its resource. ``evidence`` is what ranks the route;
    the evidence a compiled call records prefers the surface the request used (see the
    planner). ``rank`` is its place in the ordering (lower first).

    A route whose fields serve every term gets its evidence built on first read (few
    candidates are ever read: the chain and the ones just before it).

    A full candidate has nothing ``missing``, a ``weight`` of 0 and ``asked`` its need's
    semantic ids; a partial answer's candidate (``partial.PartialCandidate``) has its own.
    """

    __slots__ = ("_evidence", "_keys", "need", "provider", "rank", "route", "tool")

    missing: tuple[str, ...] = ()
    weight: int = 0

    def __init__(
        self,
        route: Route,
        evidence: dict[str, FieldMatch] | None,
        need: Need = _NO_NEED,
        keys: tuple[tuple[str, str], ...] = (),
        rank: Rank = _NO_RANK,
    ) -> None:
        self.route = route
        self._evidence = evidence
        self._keys = keys
        self.need = need
        self.tool: str = route.tool.name
        """The route's tool name (read on every step of a walk, so stored, not derived)."""
        self.provider: str | None = route.provider
        self.rank = rank

    @property
    def asked(self) -> tuple[str, ...]:
        """Every semantic id of the need as this candidate reads it, missing ones included."""
        return self.need.sids

    @property
    def evidence(self) -> dict[str, FieldMatch]:
        """Semantic id -> the route's best match for it (by its semantic id key)."""
        if self._evidence is None:
            self._evidence = first_matches(self.route.matches, self._keys)
        return self._evidence


@dataclass(slots=True)
class Ordering:
    """Ranked candidates for one reading; those of one tool or provider are picked on first use."""

    ranked: list[Candidate] = field(default_factory=list)
    refused: list[Refusal] = field(default_factory=list)
    """Routes looked at that do not serve the whole reading, with the reason."""
    unseen: Callable[[], list[Refusal]] | None = None
    """The reasons of the routes the candidate index ruled out unseen (computed when asked)."""
    unseen_count: Callable[[], int] | None = None
    """How many routes ``unseen`` would list, without explaining them."""
    lexical: dict[str, float] = field(default_factory=dict)
    """The lexical score of every route with one (a partial search ranks by it too)."""
    said: frozenset[str] = frozenset()
    """The forms of the request's words (``rank.said_forms``; a partial search ranks by them too)."""
    spoken: frozenset[str] = frozenset()
    """The forms of the question's own words, argument names left out (``returns.py``)."""
    partial: list[Ordering] | None = None
    """The partial answers' tiers, best first (see ``partial.build_partial``; built on first need)."""
    _not_serving: list[tuple[str, str, str]] | None = None
    _of_tool: dict[str, list[Candidate]] = field(default_factory=dict)
    _of_provider: dict[str | None, list[Candidate]] = field(default_factory=dict)

    @property
    def not_serving(self) -> list[tuple[str, str, str]]:
        """Every route that does not serve the whole reading, with its reason: the ones that
        lack fewer semantic ids first, then by tool and endpoint (built on first use: a plan
        reads it only when its rejections are read)."""
        if self._not_serving is None:
            rows = list(self.refused)
            if self.unseen is not None:
                rows.extend(self.unseen())
            self._not_serving = [(tool, endpoint, reason) for _, tool, endpoint, reason in sorted(rows)]
        return self._not_serving

    def reranked(self, ranked: list[Candidate]) -> Ordering:
        """A copy ranking *ranked* (the same reading, refusals and words); what was built from
        the old ranking (the candidates by tool and provider, the partial tiers) starts empty."""
        return Ordering(
            ranked, self.refused, self.unseen, self.unseen_count, self.lexical, self.said, self.spoken
        )

    def tool_candidates(self, tool: str) -> list[Candidate]:
        """The candidates of *tool*, by rank (picked from ``ranked`` once per tool)."""
        found = self._of_tool.get(tool)
        if found is None:
            found = self._of_tool[tool] = [c for c in self.ranked if c.tool == tool]
        return found

    def provider_candidates(self, provider: str | None) -> list[Candidate]:
        """The candidates of *provider*, by rank (picked from ``ranked`` once per provider)."""
        found = self._of_provider.get(provider)
        if found is None:
            found = self._of_provider[provider] = [c for c in self.ranked if c.provider == provider]
        return found

    def not_serving_count(self) -> int:
        """``len(self.not_serving)``, without building the reasons when they were not asked for."""
        if self._not_serving is not None or self.unseen_count is None:
            return len(self.not_serving)
        return len(self.refused) + self.unseen_count()

    def in_order(self, preferred: Sequence[str]) -> Iterator[Candidate]:
        """Every candidate: *preferred* tools first (in their order), then by rank."""
        return self._walk(preferred, self.ranked, None)

    def of_provider(self, provider: str, preferred: Sequence[str]) -> Iterator[Candidate]:
        """The candidates of *provider*, preferred tools first, then by rank."""
        return self._walk(preferred, self.provider_candidates(provider), provider)

    def _walk(
        self, preferred: Sequence[str], pool: list[Candidate], provider: str | None
    ) -> Iterator[Candidate]:
        named = set(preferred)
        for tool in dict.fromkeys(preferred):
            for candidate in self.tool_candidates(tool):
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
    given: frozenset[str] = frozenset(),
) -> Ordering:
    """The :class:`Ordering` of every route for the field *terms* and query *words*.

    *words* are the forms of each ranking word (see ``Reading``); with *restrict* (a query
    read for its need) routes whose need is empty and whose lexical score is zero are left
    out when there are words, unless they take every argument *given* and few routes do (at
    most :data:`SPECIFIC_SHARE` of them: such argument names are evidence for the operations
    that take them, as ``term`` is for NCBI's ``esearch``). Candidates are ranked by
    :func:`.rank.rank_of`. The planner keeps orderings in its cache until the contracts
    change.
    """
    lexical = registry.lexicon.scores(words) if words else {}
    restrict = restrict and bool(words)
    ordering = Ordering(lexical=lexical)
    last_pairs: tuple[tuple[str, str], ...] = ()
    last_need = Need()
    taking = specific(registry, given) if given and restrict else set()
    possible = possible_paths(registry, terms, lexical, restrict)
    if possible is not None and not terms:
        possible |= taking
    subjects: list[Candidate] = []  # candidates with identity fields, searched by filters (rule 3)
    if possible is None:
        routes: Iterable[Route] = registry.routes()
    else:
        routes = registry.routes_at(possible)
        ordering.unseen = lambda: [
            _refusal(route, terms, restrict) for route in registry.routes() if route.path not in possible
        ]
        ordering.unseen_count = lambda: (
            registry.route_count() - sum(1 for path in possible if registry.route(path) is not None)
        )
    simple = by_one_field(terms)
    keys, simple_pairs = simple if simple is not None else ((), ())
    one_key = keys[0][1] if len(keys) == 1 else None
    said = ordering.said = said_forms(words, given)
    spoken = ordering.spoken = said_forms(words, frozenset())
    penalties: dict[str, float] = {}  # endpoint name -> rule 4's penalty (names repeat across tools)
    ranked, refused = ordering.ranked, ordering.refused
    for route in routes:  # every candidate of a cold plan: kept lean (locals, no keyword calls)
        path = route.path
        score = lexical.get(path, 0.0) if lexical else 0.0
        silent = restrict and score <= 0.0 and path not in taking
        if silent and not terms:
            refused.append((_NO_WORDS, route.tool.name, route.endpoint.name, NO_WORD_MATCHES))
            continue
        if one_key is not None:  # one term of one semantic id, the most common reading
            match = route.matches.get(one_key)
            points = None if match is None else 1 if match.kind == "alias" else 2
        else:
            points = points_of(route.matches, keys) if simple is not None else None
        evidence: dict[str, FieldMatch] | None = None
        if points is not None:  # its fields serve every term: the same explanation, built lazily
            pairs = simple_pairs
        else:
            explained = explain(route, terms)
            if isinstance(explained, list):
                refused.append(_no_field(route, explained))
                continue
            pairs, evidence, points = explained
        if silent and not pairs:
            refused.append((_NO_WORDS, route.tool.name, route.endpoint.name, NO_WORD_MATCHES))
            continue
        if pairs is not last_pairs and pairs != last_pairs:  # neighbours mostly read the query alike
            last_pairs, last_need = pairs, Need.of(pairs)
        order = route.order
        name = order[2]
        penalty = penalties.get(name)
        if penalty is None:
            penalty = penalties[name] = name_penalty(name, said)
        required = route.required
        fits = given <= route.argument_names and required <= given if given else not required
        head = (  # rank_of (see .rank), inlined: this runs for every candidate of a cold plan
            route.deprecated,
            0 if fits else 1,
            0,
            0 if route.path_words is NO_PATH_WORDS else returns_part(route, spoken),
            penalty - score,
            -(route.projection_bonus + points),
        )
        rank = head + order  # Route.order: cost units, tool and endpoint name
        candidate = Candidate(route, evidence, last_need, keys, rank)
        ranked.append(candidate)
        if route.identity and not required:
            subjects.append(candidate)
    if len(subjects) > 1:
        named = {sid for term in terms for sid in term.sids}  # not a term's alternative reading
        needs = {c.route.path: tuple(s for s in c.need.sids if s in named) for c in subjects}
        parts = subject_ranks(
            ((c.route, len(c.need.sids)) for c in subjects), words, _family(registry, needs)
        )
        for candidate in subjects:
            part = parts.get(candidate.route.path)
            if part is not None:
                r = candidate.rank
                candidate.rank = (r[0], r[1], part, *r[3:])
    ranked.sort(key=RANK)
    return ordering


def _family(registry: Registry, needs: dict[str, tuple[str, ...]]) -> Family:
    """Rule 3's view of a candidate's tool: its other routes, and the semantic ids the
    candidate serves of the need by its fields."""

    def family(route: Route) -> tuple[Iterable[Route], tuple[str, ...]]:
        tool = registry.tool(route.tool.name)
        endpoints = tool.endpoints if tool is not None else ()
        others = (r for e in endpoints if (r := registry.route(f"{route.tool.name}.{e.name}")) is not None)
        return others, needs.get(route.path, ())

    return family


def _no_field(route: Route, missing: list[str]) -> Refusal:
    names = ", ".join(map(repr, missing))
    return (
        len(missing),
        route.tool.name,
        route.endpoint.name,
        f"exposes no field for {names} (no matching semantic id, name or alias)",
    )


def _refusal(route: Route, terms: Sequence[Term], restrict: bool) -> Refusal:
    """Why a route ruled out unseen serves nothing of the reading."""
    if not terms:
        return (_NO_WORDS, route.tool.name, route.endpoint.name, NO_WORD_MATCHES)
    explained = explain(route, terms)
    if isinstance(explained, list):
        return _no_field(route, explained)
    return (_NO_WORDS, route.tool.name, route.endpoint.name, NO_WORD_MATCHES)  # pragma: no cover
