"""One request's reading of its query: the need, the words that rank endpoints, and what
stays unmatched.

**Scope words.** A query word that the request's arguments already say is a *scope word*:
an argument value ("octocat", "Si", the symbols of ``elements=["Ga", "As"]``), a word of an
argument name (split at camelCase and snake_case: "created" and "before" for
``createdBefore``), or a word that such a name word of 4 letters or more begins ("repository"
when ``repo`` is given), or a word of a subject that refers back to the given values ("the
similar materials" with ``material_ids``; see ``referents.py``). Scope words are neither a
need ("issues of a repository" with ``repo=`` does not ask for a ``repository`` field), nor
ranking words, nor unmatched.

``Plan.unmatched`` lists the other content words of the query (no stop word, no number; see
``_registry/words.py``) that name no field of any route and do not match the chosen primary
endpoint's own texts (its name, keywords and description): "issues of octocat/hello-world"
answered by a ``listIssues`` endpoint leaves nothing unmatched, since "issues" chose the
endpoint. Without a primary, only field matches count. With explicit ``fields=`` the query
is not read for the need, so nothing is unmatched.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .._registry import CONTRACT_MIN_LETTERS, LexicalIndex, Route, SurfaceIndex, word_forms
from .argument_words import argument_words, name_words
from .models import PlanRequest
from .need import Need, need_from_fields, read_query
from .ordering import Ordering
from .referents import referent_words
from .terms import Term

OrderingKey = tuple[tuple[Term, ...], tuple[tuple[str, ...], ...], bool, frozenset[str]]
"""Field terms, forms of the ranking words, whether the need is explicit, the argument names."""


@dataclass(slots=True)
class Reading:
    """The need, terms and words of one (query, arguments, fields); kept in the planning cache.

    ``terms`` are the field terms routes explain (see :mod:`.terms`); ``need`` their
    semantic ids, the plan's need when no route serves them. ``words`` are the forms (the
    word, then its singular candidates) of each content word that is not a scope word: they
    score endpoints lexically. ``rest`` are those of them that no field covered.
    ``ordering`` and ``unmatched`` memoise what the planner derives from them (same
    lifetime: the registry drops the cache on every change).
    """

    need: Need
    terms: tuple[Term, ...]
    words: tuple[tuple[str, ...], ...]
    rest: tuple[tuple[str, ...], ...]
    explicit: bool
    given: frozenset[str] = frozenset()
    """The names of the request's arguments (evidence for the operations that take them)."""
    ordering: Ordering | None = None
    by_arguments: Ordering | None = None
    """The routes taking every argument given (``arguments_tier``), built when first needed."""
    unmatched: dict[str, tuple[str, ...]] = field(default_factory=dict)
    asked: tuple[tuple[str, ...], ...] | None = None
    """The asked words when they are foreign to every source (``asked.foreign_asked``),
    computed when first needed."""

    @property
    def ordering_key(self) -> OrderingKey:
        return (self.terms, self.words, self.explicit, self.given)

    def unmatched_for(self, route: Route | None) -> tuple[str, ...]:
        """The unmatched words when *route* (the primary, or None) answers."""
        key = route.path if route is not None else ""
        found = self.unmatched.get(key)
        if found is None:
            found = tuple(
                forms[0] for forms in self.rest if route is None or not route.lexical.matches(forms)
            )
            self.unmatched[key] = found
        return found


def read_request(request: PlanRequest, index: SurfaceIndex, lexicon: LexicalIndex | None = None) -> Reading:
    """The :class:`Reading` of *request* against the registry's field surfaces (and, with
    *lexicon*, its operation words: see :func:`.need.read_query`)."""
    spoken = argument_words(request.arguments) | referent_words(request.query, request.arguments)
    stems = _stems(request.arguments)
    operation_word = (lambda word: lexicon.is_head_word(word_forms(word))) if lexicon is not None else None
    query = read_query(request.query, index, lambda word: _says(word, spoken, stems), operation_word)
    scope = frozenset(w for w in query.words if _says(w, spoken, stems))
    words = tuple(word_forms(w) for w in query.words if w not in scope)
    if request.fields is not None:
        need = need_from_fields(request.fields, index)
        given = frozenset(request.arguments)
        return Reading(need, _explicit_terms(need), words, (), explicit=True, given=given)
    terms = tuple(t for t in query.terms if not _scoped(t, scope))
    need = Need.of((sid, t.key) for t in terms for sid in t.sids)
    uncovered = set(query.uncovered)
    rest = tuple(forms for forms in words if forms[0] in uncovered)
    return Reading(need, terms, words, rest, explicit=False, given=frozenset(request.arguments))


def scope_words(arguments: Mapping[str, Any], words: Iterable[str]) -> frozenset[str]:
    """The query *words* the request's *arguments* already say (see the module docstring)."""
    spoken = argument_words(arguments)
    stems = _stems(arguments)
    return frozenset(w for w in words if _says(w, spoken, stems))


def _stems(arguments: Mapping[str, Any]) -> list[str]:
    return [w for name in arguments for w in name_words(name) if len(w) >= CONTRACT_MIN_LETTERS]


def _says(word: str, spoken: frozenset[str], stems: list[str]) -> bool:
    return word in spoken or any(word.startswith(stem) for stem in stems)


def _scoped(term: Term, scope: frozenset[str]) -> bool:
    return bool(term.parts) and all(part.forms[0] in scope for part in term.parts)


def _explicit_terms(need: Need) -> tuple[Term, ...]:
    """Explicit field names: one term per semantic id, explained only by a field."""
    return tuple(Term(surface, (sid,)) for sid, surface in need.pairs())
