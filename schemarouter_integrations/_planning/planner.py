"""The deterministic planner: one primary route and a bounded, precompiled fallback chain.

Candidates are the routes that serve the query: each explains every field term of the query
(a stretch that names a field surface somewhere) by its field, or as its resource, word by
word, through its name, keywords, summary, own fields and texts (see ``terms.py``); explicit
``fields=`` only by fields. Words the request's arguments already say (values, names, words
an argument name of 4+ letters begins: "repository" with ``repo=``) are scope words: no need,
no ranking, never unmatched (``reading.py``). Candidates are walked in a documented order:
tools named in ``preferred_tools`` first, in that order; then by evidence score (2 per term
served by semantic id or name, or explained as the route's resource, 1 per alias-only match,
+1 when the endpoint projects fields server-side; higher first), lexical score (BM25F of the
query's content words, scope words left out, over the endpoint's name, keywords, summary and
description, weighted 3/2/2/1; higher first; see ``_registry/lexicon.py``), ``cost_units``
(lower first), tool name and endpoint name. A field reading and a resource reading score
alike, so the lexical score decides between them: "issues" goes to the endpoint whose texts
are about issues rather than to one whose records carry an ``issue`` field.

The plan's ``need`` is the primary's: the semantic ids it serves by fields (a term it explains
as its resource is not a field need: "issues" answered by an issues listing has need ``[]``
and selects every field), plus those it is missing. Without a primary it is every term's
semantic ids.

**Partial answers.** When no candidate serving every term passes the checks, the routes that
serve part of the terms are walked in tiers of equal weight, heaviest first (2 per semantic id
served of a term named by a field's name, semantic id or alias, 1 per one of a term read only
through a field's description words; see ``partial.build_partial``), each tier in the order
above. The first passing one is the primary; ``Plan.missing`` lists the semantic ids it does
not serve, and its fallbacks come from its tier, reading the same need and missing the same
ids; without a passing route there is no primary. Tiers are built once per reading, when
first needed, from the routes holding a match key or a word of a term.

**Arguments as evidence.** When neither passes, and the question writes (or refers back to) a
value it is given, the routes taking every argument given and needing no other are the last
tier (``arguments_tier.py``): ranked by their own words, then the broadest record; a word the
question asks the value of ("lyrics of ...") that such a route does not mention rules it out.

**Asked words no source uses.** When most words of the phrase a question asks the value of
("altmetric attention score of article ...") are used by no registered source and none is
read as a field, a route that mentions none of them is rejected in every tier
(``asked.py``): it would answer about the subject, not about what was asked.

The walk's rejections are ordered by closeness to an answer (``rejections.closeness``); the
candidates the chain did not need follow, then the routes that do not serve the need.

A route whose need is empty, for a query that still has content words, is a candidate only
when its lexical score is positive: an operation whose words and fields match nothing in the
query is not chosen merely because it exists. When none is, the plan has no primary and every
route is rejected with a reason saying that nothing matched (``invoke`` raises
``NoRouteError`` naming the unmatched words). A query without content words (only stop words,
numbers and argument values) and an explicit ``fields=[]`` admit every endpoint, as before.
The first candidate that passes every check becomes the primary. Fallbacks, only when the
primary has an explicit provider, are the next passing candidates of the same provider, then
(``cross_provider``) of other explicit providers, up to ``max_fallbacks``, among those that
read the query as the same need (same data as the primary).

Each call's evidence names, per semantic id of the need, the field that serves it and the name
or alias that matched: the surface the request used ("탄성계수") when that surface names a field of
this semantic id on the route, else the route's best match for the id.

A tool named in ``preferred_tools`` that is not registered (or only pending: declared by the
landscape, its source not read yet) is no silence: the plan carries a warning
(``Plan.warnings``, shown by ``explain()``) and the logger ``schemarouter_integrations.planning``
says so once per set of such names until the contracts change.

Checks run lazily, cheapest first, and the walk stops once the chain is full; candidates never
reached get their rejection reason only when ``Plan.rejected`` is read. A plan therefore costs a
few dictionary look-ups plus schema checks of the routes that end up in, or just before, the chain.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from .._registry import Registry
from .arguments_tier import broadest_first, build_arguments_tier, writes_a_value
from .asked import asked_words, foreign_asked
from .breadth import loose_anywhere, loose_sids, stand_ins
from .models import CallScope, Plan, PlanRequest, ToolCall
from .need import Need
from .ordering import RANK, Candidate, Ordering, build_ordering
from .partial import build_partial
from .reading import Reading, read_request, scope_words
from .reasons import reasons
from .rejections import Shown, closeness, not_preferred
from .shape import tool_call
from .subject import SubjectReading, by_subject, read_subject
from .walk import CooldownView, Walk

logger = logging.getLogger("schemarouter_integrations.planning")

__all__ = ["CooldownView", "compile_plan"]


def compile_plan(
    request: PlanRequest,
    registry: Registry,
    cooldown_left: CooldownView,
    *,
    executable_only: bool = False,
) -> Plan:
    """Compile *request* against *registry* without I/O. Same inputs, same plan."""
    walk = Walk(request, registry, cooldown_left, executable_only)
    reading = _reading(request, walk)
    walk.asked = _asked(reading, walk)
    ordering = reading.ordering or _ordering(reading, walk)
    preferred = request.preferred_tools

    pool = ordering
    primary = walk.first_passing(ordering.in_order(preferred), heads_chain=True)
    tiers: list[Ordering] | None = None
    if primary is None and reading.terms:  # no route serving the whole need passes: a partial answer
        tiers = ordering.partial
        if tiers is None:
            built = build_partial(
                walk.registry, reading.terms, ordering.lexical, reading.given, ordering.said, ordering.spoken
            )
            tiers = ordering.partial = [
                by_subject(t, _subject(reading, walk), RANK, walk.registry) for t in built
            ]
        for tier in tiers:
            primary = walk.first_passing(tier.in_order(preferred), heads_chain=True)
            if primary is not None:
                pool = tier
                break
    if primary is None and _about_arguments(reading, request):  # argument names as evidence
        tier = _by_arguments(reading, ordering, walk)
        primary = walk.first_passing(tier.in_order(preferred), heads_chain=True)
        if primary is not None:
            pool = tier
        tiers = tiers if tiers is not None else []
    chain: list[tuple[Candidate, CallScope]] = []
    if primary is not None:
        chain.append((primary, "primary"))
        chain.extend(_fallbacks(primary, pool, walk))

    unmatched = reading.unmatched_for(primary.route if primary is not None else None)
    calls = [
        _cached_call(c, walk, scope, reading.need, unmatched if scope == "primary" else ())
        for c, scope in chain
    ]
    if len(walk.rejected) > 1:
        walk.rejected.sort(key=closeness)  # stable: the walk's order within each kind
    need = primary.asked if primary is not None else reading.need.sids
    shown = Shown(
        ordering, pool, walk.request, walk.visited, walk.rejected, primary, searched=tiers is not None
    )
    return Plan.compiled(
        not_serving=shown.not_serving,
        rejections=walk.rejected,
        unreached=shown.unreached,
        count=shown.count,
        request=request,
        need=list(need),
        missing=list(primary.missing) if primary is not None else [],
        unmatched=list(unmatched),
        primary=calls[0] if calls else None,
        fallbacks=calls[1:],
        reasons=_reasons(primary, pool, walk) if primary is not None else None,
        executable_only=executable_only,
        warnings=_warnings(request, walk) if preferred else [],
    )


def _reasons(primary: Candidate, pool: Ordering, walk: Walk) -> Callable[[], list[str]]:
    """``Plan.reasons``, built when first read (most plans are invoked, not explained)."""
    return lambda: reasons(primary, pool, walk.request, walk.visited, walk.rejected)


def _warnings(request: PlanRequest, walk: Walk) -> list[str]:
    """A warning per preferred tool that is not registered (it cannot be preferred), logged
    once per set of such names until the contracts change."""
    registry = walk.registry
    missing = tuple(name for name in dict.fromkeys(request.preferred_tools) if registry.tool(name) is None)
    if not missing:
        return []
    out = [not_preferred(name, pending=registry.is_pending(name)) for name in missing]
    if missing not in walk.cache.warned:
        walk.cache.warned.add(missing)
        logger.warning("plan for %r: %s", request.query, "; ".join(out))
    return out


def _reading(request: PlanRequest, walk: Walk) -> Reading:
    fields = tuple(request.fields) if request.fields is not None else None
    key = (request.query, walk.arguments_key, fields)
    reading = walk.cache.readings.get(key)
    if reading is None:
        reading = walk.cache.readings.put(
            key, read_request(request, walk.registry.index, walk.registry.lexicon)
        )
    return reading


def _asked(reading: Reading, walk: Walk) -> tuple[tuple[str, ...], ...]:
    if reading.explicit:
        return ()
    if reading.asked is None:
        arguments, query = walk.request.arguments, walk.request.query
        scope = lambda word: bool(scope_words(arguments, (word,), query))  # noqa: E731
        reading.asked = foreign_asked(walk.request.query, reading.rest, scope, walk.registry)
    return reading.asked


def _ordering(reading: Reading, walk: Walk) -> Ordering:
    key = reading.ordering_key
    ordering = walk.cache.orderings.get(key)
    if ordering is None:
        built = build_ordering(
            walk.registry, reading.terms, reading.words, restrict=not reading.explicit, given=reading.given
        )
        ordering = walk.cache.orderings.put(key, built)
    reading.ordering = by_subject(ordering, _subject(reading, walk), RANK, walk.registry)
    return reading.ordering


def _subject(reading: Reading, walk: Walk) -> SubjectReading:
    """What the request's argument values say of their subjects (``subject.py``), read once."""
    if reading.subject is None:
        reading.subject = read_subject(walk.request.query, walk.request.arguments)
    return reading.subject


def _about_arguments(reading: Reading, request: PlanRequest) -> bool:
    return bool(reading.given) and not reading.explicit and writes_a_value(request.query, request.arguments)


def _by_arguments(reading: Reading, ordering: Ordering, walk: Walk) -> Ordering:
    tier = reading.by_arguments
    if tier is None:
        tier = reading.by_arguments = build_arguments_tier(
            walk.registry,
            reading.terms,
            reading.words,
            ordering.lexical,
            reading.given,
            asked_words(walk.request.query),
        )
        tier = reading.by_arguments = by_subject(tier, _subject(reading, walk), broadest_first, walk.registry)
    return tier


def _fallbacks(primary: Candidate, pool: Ordering, walk: Walk) -> list[tuple[Candidate, CallScope]]:
    """The fallbacks of *primary* from its *pool* (the full candidates, or its partial tier):
    candidates that read the query as the same need and lack the same semantic ids, so each
    serves what the primary serves."""
    request = walk.request
    provider = primary.provider
    if request.fallback_scope == "disabled" or provider is None:
        return []
    chosen: list[tuple[Candidate, CallScope]] = []
    reads = primary.need.sids
    lacks = primary.missing
    same = (
        c
        for c in pool.of_provider(provider, request.preferred_tools)
        if c.need.sids == reads and c.missing == lacks
    )
    while len(chosen) < request.max_fallbacks:
        found = walk.first_passing(same, heads_chain=False)
        if found is None:
            break
        chosen.append((found, "same_provider"))
    if request.fallback_scope == "cross_provider":
        others = (
            c
            for c in pool.in_order(request.preferred_tools)
            if c.provider is not None
            and c.provider != provider
            and c.need.sids == reads
            and c.missing == lacks
        )
        while len(chosen) < request.max_fallbacks:
            found = walk.first_passing(others, heads_chain=False)
            if found is None:
                break
            chosen.append((found, "cross_provider"))
    return chosen


def _loose_anywhere(need: Need, walk: Walk) -> frozenset[tuple[str, str]]:
    """``breadth.loose_anywhere`` of *need*, read once per plan (every call of the chain asks)."""
    found = walk.loose.get(need)
    if found is None:
        found = walk.loose[need] = loose_anywhere(need, walk.request.query, walk.request.arguments)
    return found


def _cached_call(
    candidate: Candidate, walk: Walk, scope: CallScope, asked: Need, unmatched: tuple[str, ...] = ()
) -> ToolCall:
    """Compiled calls are immutable and depend only on these inputs, so they are reused.

    The candidate's need carries the surfaces as well as the semantic ids, since evidence
    records them. *asked* is the reading's need (the surfaces of what the candidate misses);
    which terms narrow the answer and what stands in for the missing are read here
    (``breadth.py``), as they depend on the query's words.
    """
    need = candidate.need
    route = candidate.route
    request = walk.request
    loose = loose_sids(route, need, _loose_anywhere(need, walk)) if need.sids else ()
    surfaces = dict(asked.pairs())
    standing = (
        stand_ins(route, (f"{surfaces.get(sid, '')} {sid}" for sid in candidate.missing))
        if candidate.missing
        else ()
    )
    preferred = candidate.tool in request.preferred_tools
    missing = candidate.missing
    key = (route.path, need, walk.arguments_key, scope, preferred, missing, unmatched, loose, standing)
    call = walk.cache.calls.get(key)
    return (
        call
        if call is not None
        else walk.cache.calls.put(
            key, tool_call(candidate, need, request, scope, unmatched, loose=loose, standing=standing)
        )
    )
