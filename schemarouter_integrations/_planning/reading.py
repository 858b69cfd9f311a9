"""One request's reading of its query: the need, the words that rank endpoints, and what
stays unmatched.

**Scope words.** A query word that the request's arguments already say is a *scope word*:
an argument value ("octocat", "Si", the symbols of ``elements=["Ga", "As"]``), a word of an
argument name (split at camelCase and snake_case: "created" and "before" for
``createdBefore``), or a word that such a name word of 4 letters or more begins ("repository"
when ``repo`` is given), or a word of a subject that refers back to the given values ("the
similar materials" with ``material_ids``; see ``referents.py``), or a word naming the
subject the arguments give ("iron" with ``elements=["Fe"]``, "FBN1" with ``id="HGNC:3603"``;
see ``named.py``). Scope words are neither a
need ("issues of a repository" with ``repo=`` does not ask for a ``repository`` field), nor
ranking words, nor unmatched. A term of several words that ends in a word of an argument's
name, written right before that argument's value, is the value's *label* ("UniProt accession
P00533" with ``accession``): not a need either, though its other words still rank endpoints
("uniprot").

Before the words are read, a well-known notation of science ("Eg") is written as its words
when the documents use them (``_registry/notations.py``); after, a purpose word ("describe
the structure of ...") turns the field terms after it into its topic (``purpose.py``). A word
negated by a prefix that no document uses ranks by its base too ("dissimilarity").

``Plan.unmatched`` lists the other content words of the query (no stop word, no number; see
``_registry/words.py``) that name no field of any route and do not match the chosen primary
endpoint's own texts (its name, keywords and description): "issues of octocat/hello-world"
answered by a ``listIssues`` endpoint leaves nothing unmatched, since "issues" chose the
endpoint. Without a primary, only field matches count. With explicit ``fields=`` the query
is not read for the need, so nothing is unmatched.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .._registry import CONTRACT_MIN_LETTERS, LexicalIndex, Route, SurfaceIndex, word_forms
from .._registry.notations import spell_notations
from .._registry.words import negated_base
from .._text import normalise
from .argument_words import argument_words, name_words, value_words
from .models import PlanRequest
from .named import subject_words, without_possessives
from .need import Need, need_from_fields, read_query
from .ordering import Ordering
from .purpose import purpose_terms
from .referents import referent_words
from .subject import SubjectReading, labels_parameter
from .terms import Term

_WORDS = re.compile(r"\w+")

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
    subject: SubjectReading | None = None
    """What the argument values say of their subjects (``subject.py``), read when first needed."""
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
                forms[0]
                for forms in self.rest
                if route is None or not (route.lexical.matches(forms) or self._labels(route, forms))
            )
            self.unmatched[key] = found
        return found

    def _labels(self, route: Route, forms: tuple[str, ...]) -> bool:
        """True when the word (*forms*) labels a given value that *route*'s parameter names
        ("the member tib" and a parameter described "Member account ID")."""
        return self.subject is not None and labels_parameter(route, self.subject, forms)


def read_request(request: PlanRequest, index: SurfaceIndex, lexicon: LexicalIndex | None = None) -> Reading:
    """The :class:`Reading` of *request* against the registry's field surfaces (and, with
    *lexicon*, its operation words: see :func:`.need.read_query`)."""
    spoken = (
        argument_words(request.arguments)
        | referent_words(request.query, request.arguments)
        | subject_words(request.query, request.arguments, _known(index, lexicon))
    )
    stems = _stems(request.arguments)
    operation_word = (lambda word: lexicon.is_head_word(word_forms(word))) if lexicon is not None else None
    said = lambda word: _says(word, spoken, stems)  # noqa: E731
    text = spell_notations(without_possessives(request.query), lambda word: _documented(word, index, lexicon))
    query = read_query(text, index, said, operation_word)
    scope = frozenset(w for w in query.words if _says(w, spoken, stems))
    documented = lambda word: _documented(word, index, lexicon)  # noqa: E731
    glossed = (lambda word: _glossed(word, lexicon)) if lexicon is not None else _no_gloss
    words = tuple(_ranking_forms(w, documented, glossed) for w in query.words if w not in scope)
    words += _pronoun_words(request.query)
    if request.fields is not None:
        need = need_from_fields(request.fields, index)
        given = frozenset(request.arguments)
        return Reading(need, _explicit_terms(need), words, (), explicit=True, given=given)
    labels = _label_of_value(request)
    terms = tuple(t for t in query.terms if not _scoped(t, scope) and not labels(t))
    terms = purpose_terms(request.query, terms, index) or terms  # "describe the structure of ..."
    need = Need.of((sid, t.key) for t in terms for sid in t.sids)
    uncovered = set(query.uncovered)
    rest = tuple(forms for forms in words if forms[0] in uncovered)
    return Reading(need, terms, words, rest, explicit=False, given=frozenset(request.arguments))


FIRST_PERSON = re.compile(r"\b(?:my|mine|myself)\b|\b(?:to|for|about|by|with|of|at)\s+me\b", re.IGNORECASE)
"""Words by which the asker names themself (on a web API, its current, authenticated user):
"my", and "me" after a preposition ("assigned to me"; "tell me", "show me" only ask)."""
SPEAKER_WORDS: tuple[tuple[str, ...], ...] = (("user",), ("current", "authenticated"))
"""The ranking words a question in the first person adds: the words API documents call the
asker by ("Get Current User's Playlists", "the authenticated user", path ``/me``)."""
PERSON_QUESTION = re.compile(r"\b(?:who|whom)\b", re.IGNORECASE)
"""Question words whose answer is a person."""
PERSON_WORDS: tuple[tuple[str, ...], ...] = (("users", "user", "members", "member", "people", "person"),)
"""The ranking word a question asking *who* adds: the nouns API documents name people by
("Get users in a team", "members of the team")."""
COUNT_QUESTION = re.compile(r"\bhow\s+many\b", re.IGNORECASE)
"""Question words whose answer is a number."""
COUNT_WORDS: tuple[tuple[str, ...], ...] = (("count", "counts", "number", "statistics", "stats"),)
"""The ranking word a question asking *how many* adds: the nouns API documents name counts by
("Get task count of a project", "Returns the number of associations")."""
STATUS_QUESTION = re.compile(
    r"\b(?:is|are)\b.*\b(?:up|down|online|offline|alive|reachable|operational)\s*\??\s*$", re.IGNORECASE
)
"""A question whether a service works ("is the API up?", "is the server down"): it asks the
service's own status, not a record."""
STATUS_WORDS: tuple[tuple[str, ...], ...] = (("status", "health", "heartbeat", "ping"),)
"""The ranking word a status question adds: the nouns API documents name their liveness check by
("Return the current status of the REST API", ``/heartbeat``, ``/health``, ``/ping``)."""


def _known(index: SurfaceIndex, lexicon: LexicalIndex | None) -> Callable[[str], bool]:
    """Whether a registered source uses a word: its texts, a field's words or surfaces."""

    def known(word: str) -> bool:
        forms = word_forms(word)
        if lexicon is not None and any(next(iter(lexicon.paths_with(f)), None) is not None for f in forms):
            return True
        return index.field_words.mentions(word) or any(index.semantic_ids(f) for f in forms)

    return known


def _pronoun_words(query: str) -> tuple[tuple[str, ...], ...]:
    """The ranking words *query*'s pronouns and question words add: :data:`SPEAKER_WORDS`
    when it speaks in the first person ("my playlists"), :data:`PERSON_WORDS` when it asks
    who ("who is on team 15"), :data:`COUNT_WORDS` when it asks how many, :data:`STATUS_WORDS`
    when it asks whether the service is up; else ()."""
    words: tuple[tuple[str, ...], ...] = ()
    if FIRST_PERSON.search(query):
        words += SPEAKER_WORDS
    if PERSON_QUESTION.search(query):
        words += PERSON_WORDS
    if COUNT_QUESTION.search(query):
        words += COUNT_WORDS
    if STATUS_QUESTION.search(query):
        words += STATUS_WORDS
    return words


def scope_words(arguments: Mapping[str, Any], words: Iterable[str], query: str = "") -> frozenset[str]:
    """The query *words* the request's *arguments* already say (see the module docstring);
    with *query*, the words naming the subject they give too (``named.py``)."""
    spoken = argument_words(arguments) | subject_words(query, arguments)
    stems = _stems(arguments)
    return frozenset(w for w in words if _says(w, spoken, stems))


def _ranking_forms(
    word: str, documented: Callable[[str], bool], glossed: Callable[[str], tuple[str, ...]]
) -> tuple[str, ...]:
    """The forms of a ranking *word*: the word and its singular candidates, and, for a word no
    registered document uses, the base a negating prefix negates when a document uses that
    ("dissimilarity" ranks the operations about similarity; ``_registry/words.negated_base``),
    else what a parameter's description says the word means ("blocked" by ``is_blocked``,
    "Filter to tasks with incomplete dependencies"; ``_registry/glosses.py``)."""
    forms = word_forms(word)
    base = negated_base(word)
    glosses = glossed(word)
    if (not base and not glosses) or documented(word):
        return forms
    if base and documented(base):
        return (*forms, base)
    return forms + tuple(g for g in glosses if g not in forms)


def _glossed(word: str, lexicon: LexicalIndex) -> tuple[str, ...]:
    """The gloss words of *word* that are operation words (a head term of some route)."""
    return tuple(g for g in lexicon.glosses.of(word) if lexicon.is_head_word((g,)))


def _no_gloss(word: str) -> tuple[str, ...]:
    return ()


def _documented(word: str, index: SurfaceIndex, lexicon: LexicalIndex | None) -> bool:
    """True when *word* is a word of a registered field (name, alias or description) or of an
    operation's texts."""
    if index.field_words.mentions(word):
        return True
    return lexicon is not None and next(iter(lexicon.paths_with(word)), None) is not None


def _stems(arguments: Mapping[str, Any]) -> list[str]:
    return [w for name in arguments for w in name_words(name) if len(w) >= CONTRACT_MIN_LETTERS]


def _says(word: str, spoken: frozenset[str], stems: list[str]) -> bool:
    return word in spoken or any(word.startswith(stem) for stem in stems)


def _label_of_value(request: PlanRequest) -> Callable[[Term], bool]:
    """Whether a term of several words is the label of a value the request gives: it ends
    in a word of an argument's name and the question writes that argument's value right
    after it ("UniProt accession P00533" with ``accession``, "PubChem CID 2244" with ``cid``).
    Such a term says which value the question is about, not a field it asks for."""
    tokens = _WORDS.findall(normalise(request.query))
    values = {name: value_words({name: value}) for name, value in request.arguments.items()}

    def labels(term: Term) -> bool:
        words = [part.forms[0] for part in term.parts]
        if len(words) < 2:
            return False
        size = len(words)
        for name, written in values.items():
            if words[-1] not in name_words(name):
                continue
            for at in range(len(tokens) - size):
                if tokens[at : at + size] == words and tokens[at + size] in written:
                    return True
        return False

    return labels


def _scoped(term: Term, scope: frozenset[str]) -> bool:
    return bool(term.parts) and all(part.forms[0] in scope for part in term.parts)


def _explicit_terms(need: Need) -> tuple[Term, ...]:
    """Explicit field names: one term per semantic id, explained only by a field."""
    return tuple(Term(surface, (sid,)) for sid, surface in need.pairs())
