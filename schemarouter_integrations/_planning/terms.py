"""Field terms of a query and how each route explains them: by a field, or as its resource.

A *term* is a stretch of the query that names a field surface somewhere in the registry
("issues" -> ``issue``, "open issues" -> ``open_issues``, "customer emails" ->
``customer_email``). A route explains a term

1. **by its field**: it serves every semantic id of the term (by semantic id, name or alias:
   2 points per id served by semantic id or name, 1 per alias-only match); else
2. **by a field of its own vocabulary** (1 point): a word of a term of several words names
   one of the route's fields alone and the term's other words are words of that field's name
   or description: "magnetic ordering" is MP summary's ``ordering`` ("Type of magnetic
   ordering") although another route's ``magnetic_ordering`` named the term; else
3. **as its resource**, word by word: every word of the term is a field of the route on its
   own (the word alone names a field surface the route serves), or a word of the route's
   *head* (its name, keywords and summary, see ``_registry/lexicon.py``), or, in a term of
   several words, at least a word of its texts; and at least one word is a head word. The
   term then counts as fully served (2 points per semantic id of the term): "issues" on
   ``issues/list-for-repo`` (whose records *are* issues), "customer emails" on Stripe's
   ``GetCustomers`` (customer: its resource, emails: its ``email`` field), "open issues"
   on the issues listing (issues: its resource, open: its description). The words that
   are the route's fields enter its need; the others do not (the records are that thing);
3. **by its own words**, for a term that only the words of some field read (``_registry/
   fieldwords.py``: "entities named" read as another tool's ``entityName``): the query's
   words are matched against this route's own vocabulary instead. Each word of the term that
   names a field surface on its own must be a field of the route, at least one is, and the
   other words name no field anywhere ("entities": the route's ``entities`` field; "named":
   nothing). The term is then served by those fields, at 1 point per semantic id, so a route
   that serves the term's own field ranks first.

A route that explains neither way does not serve the query. Explicit ``fields=`` terms and
terms of unspaced scripts have no words to read as a resource: only fields explain them.
Equal points let the lexical score decide between a field reading and a resource reading,
so "issues" goes to the endpoint whose texts are about issues, not to the one whose records
merely carry an ``issue`` field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from .._registry import FieldMatch, Route, surface_key
from .._registry.fieldwords import field_vocabulary


@dataclass(frozen=True, slots=True)
class Part:
    """One query word of a term: its forms (the word, then its singular candidates) and the
    field surface it names on its own (``key`` and ``sids``; empty when none)."""

    forms: tuple[str, ...]
    key: str = ""
    sids: tuple[str, ...] = ()
    sid_keys: tuple[tuple[str, str], ...] = field(init=False, compare=False, repr=False)
    """``(sid, surface_key(sid))`` pairs, computed once (route matches are keyed by them)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "sid_keys", tuple((sid, surface_key(sid)) for sid in self.sids))


@dataclass(frozen=True, slots=True)
class Term:
    """A field term: its surface ``key``, its semantic ids (sorted) and its query words.

    ``parts`` are empty when the term cannot be read as a resource (explicit fields,
    unspaced scripts). ``strong`` is False when only the words of a field's description
    read the term (see ``_registry/fieldwords.py``): it weighs half in a partial answer."""

    key: str
    sids: tuple[str, ...]
    parts: tuple[Part, ...] = ()
    strong: bool = True
    by_words: bool = False
    """Read through the words of a field (not an exact surface): other routes may read its
    words by their own vocabulary (see the module docstring)."""
    alternatives: tuple[str, ...] = ()
    """Semantic ids the term's word reads as through field words when another route's exact
    surface named it ("stability": an OPTIMADE alias, and MP's ``is_stable``); a route that
    serves none of ``sids`` serves the term by one of these (see :func:`explain`)."""
    sid_keys: tuple[tuple[str, str], ...] = field(init=False, compare=False, repr=False)
    """``(sid, surface_key(sid))`` pairs, computed once (route matches are keyed by them)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "sid_keys", tuple((sid, surface_key(sid)) for sid in self.sids))


def holders(sids: Sequence[str], routes_by_key: Mapping[str, set[str]]) -> tuple[str, ...]:
    """The fields that hold a nested field of *sids* whole (``shear_modulus`` for
    ``shear_modulus.vrh``), where some route serves them: a route whose record keeps that
    object unopened (a map of averages) returns the nested value inside it."""
    parents = (sid.rsplit(".", 1)[0] for sid in sids if "." in sid)
    return tuple(dict.fromkeys(p for p in parents if surface_key(p) in routes_by_key))


def _alternative(route: Route, term: Term) -> tuple[str, FieldMatch] | None:
    """The route's field for one of the term's alternative readings, or None."""
    for sid in term.alternatives:
        match = route.matches.get(surface_key(sid))
        if match is not None:
            return sid, match
    return None


Explanation = tuple[tuple[tuple[str, str], ...], dict[str, FieldMatch], int]
"""How one route explains every term: the need it serves (``(sid, surface)`` pairs in term
order), the evidence ranking it (sid -> best match by the semantic id) and its points."""


def explain(route: Route, terms: Sequence[Term]) -> Explanation | list[str]:
    """The :class:`Explanation` of *terms* by *route*, or the semantic ids it cannot serve.

    Runs once per route and reading when an ordering is built, so it stays lean.
    """
    matches = route.matches
    pairs: list[tuple[str, str]] = []
    evidence: dict[str, FieldMatch] = {}
    missing: list[str] = []
    points = 0
    for term in terms:
        keys = term.sid_keys
        if len(keys) == 1:  # the common case, without allocating
            sid, key = keys[0]
            match = matches.get(key)
            if match is not None:
                if sid not in evidence:
                    evidence[sid] = match
                    points += 1 if match.kind == "alias" else 2
                pairs.append((sid, term.key))
                continue
            served = None
        else:
            served = _served(matches, keys)
        if served is not None:
            for sid, match in served:
                if sid not in evidence:
                    evidence[sid] = match
                    points += 1 if match.kind == "alias" else 2
                pairs.append((sid, term.key))
            continue
        own = _own_field(route, term) or _alternative(route, term)
        if own is not None:
            sid, match = own
            if sid not in evidence:
                evidence[sid] = match
                points += 1
            pairs.append((sid, term.key))
            continue
        parts = _as_resource(route, term)
        if parts is None:
            words = _own_words(route, term)
            if words is None:
                missing.extend(sid for sid, key in term.sid_keys if key not in matches)
                continue
            for sid, surface, match in words:
                if sid not in evidence:
                    evidence[sid] = match
                    points += 1
                pairs.append((sid, surface))
            continue
        points += 2 * len(term.sids)
        for part, found in parts:
            for sid, match in found:
                evidence.setdefault(sid, match)
                pairs.append((sid, part.key))
    if missing:
        return list(dict.fromkeys(missing))
    return tuple(pairs), evidence, points


class Partial(NamedTuple):
    """How a route serves part of the terms (see :func:`explain_partial`)."""

    pairs: tuple[tuple[str, str], ...]
    """The need it serves by fields: ``(sid, surface)`` pairs in term order."""
    evidence: dict[str, FieldMatch]
    points: int
    """Evidence points, counted as :func:`explain` counts them."""
    weight: int
    """2 per semantic id served of a strong term, 1 of a weak one (see :class:`Term`)."""
    missing: tuple[str, ...]
    """The semantic ids of the terms it does not serve, in term order."""
    asked: tuple[str, ...]
    """Every semantic id it was asked for in term order: the ones it serves by fields and the
    missing ones (a term it explains as its resource is no field need, as in :func:`explain`)."""


def explain_partial(route: Route, terms: Sequence[Term]) -> Partial | None:
    """What *route* serves of *terms* when it cannot serve them all, or None when it serves
    none of them.

    Each term is explained as :func:`explain` does (by fields, else as the route's resource);
    a term explained neither way still has its semantic ids that the route has a field for
    served one by one, and the others missing. Planning calls this only when no route serves
    every term, for the routes that hold a match key or a word of one.
    """
    matches = route.matches
    pairs: list[tuple[str, str]] = []
    evidence: dict[str, FieldMatch] = {}
    missing: list[str] = []
    asked: list[str] = []
    weighed: set[str] = set()
    points = weight = 0
    for term in terms:
        unit = (2 if term.strong else 1) * max(1, len(term.parts))  # per question word it reads
        served: list[tuple[str, FieldMatch]] = []
        lacking: list[str] = []
        for sid, key in term.sid_keys:
            match = matches.get(key)
            if match is None:
                lacking.append(sid)
            else:
                served.append((sid, match))
        own = (_own_field(route, term) or _alternative(route, term)) if lacking else None
        if own is not None:
            lacking, served = [], [own]
        if lacking:
            parts = _as_resource(route, term) if term.parts else None
            if parts is not None:
                points += 2 * len(term.sids)
                for sid in term.sids:
                    if sid not in weighed:
                        weighed.add(sid)
                        weight += unit
                for part, found in parts:
                    for sid, match in found:
                        evidence.setdefault(sid, match)
                        pairs.append((sid, part.key))
                        asked.append(sid)
                continue
            missing.extend(lacking)
            asked.extend(term.sids)
        for sid, match in served:
            if sid not in evidence:
                evidence[sid] = match
                points += 1 if match.kind == "alias" else 2
            if sid not in weighed:
                weighed.add(sid)
                weight += unit
            pairs.append((sid, term.key))
            asked.append(sid)
    if not weight:
        return None
    lacks = tuple(sid for sid in dict.fromkeys(missing) if sid not in weighed)
    return Partial(tuple(pairs), evidence, points, weight, lacks, tuple(dict.fromkeys(asked)))


def _served(
    matches: dict[str, FieldMatch], sid_keys: Sequence[tuple[str, str]]
) -> list[tuple[str, FieldMatch]] | None:
    """The route's match for each semantic id, or None when one is not served."""
    out: list[tuple[str, FieldMatch]] = []
    for sid, key in sid_keys:
        match = matches.get(key)
        if match is None:
            return None
        out.append((sid, match))
    return out


def _own_words(route: Route, term: Term) -> list[tuple[str, str, FieldMatch]] | None:
    """A term read through another field's words, read by *route*'s own fields instead: each
    word that names a field surface alone is a field of the route, and at least one is."""
    if not term.by_words or len(term.parts) < 2:
        return None
    out: list[tuple[str, str, FieldMatch]] = []
    for part in term.parts:
        if not part.sids:
            continue  # a word no field names alone ("named"): no need of this route
        served = _served(route.matches, part.sid_keys)
        if served is None:
            return None
        out.extend((sid, part.key, match) for sid, match in served)
    return out or None


def _own_field(route: Route, term: Term) -> tuple[str, FieldMatch] | None:
    """A term of several words read through one field of *route*'s own: a word of the term
    names the field on its own, and every other word is a word of that field's name or
    description ("magnetic ordering" on a route whose ``ordering`` is described "Type of
    magnetic ordering"), or None."""
    if len(term.parts) < 2:
        return None
    for part in term.parts:
        match = route.matches.get(part.key) if part.key else None
        if match is None:
            continue
        vocabulary = field_vocabulary(match.field.name, match.field.description)
        if all(other is part or any(f in vocabulary for f in other.forms) for other in term.parts):
            return match.field.sid, match
    return None


def _as_resource(route: Route, term: Term) -> list[tuple[Part, list[tuple[str, FieldMatch]]]] | None:
    """The term read word by word as the route's resource (see the module docstring)."""
    if not term.parts:
        return None
    lexical = route.lexical
    several = len(term.parts) > 1
    named = False
    out: list[tuple[Part, list[tuple[str, FieldMatch]]]] = []
    for part in term.parts:
        served = _served(route.matches, part.sid_keys) if part.sids and several else None
        if served is not None:
            out.append((part, served))
        elif lexical.names(part.forms):
            named = True
        elif not (several and lexical.matches(part.forms)):
            return None
    return out if named else None
