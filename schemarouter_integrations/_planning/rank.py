"""Stage 3 of planning, *rank*: which of the operations that serve the need holds the answer.

The stages before it (*read*: ``reading.py`` and ``need.py`` turn the question into words and
field terms; *match*: ``terms.py`` and ``ordering.py`` find the routes that explain every
term) hand over the candidates; the stages after it (*shape arguments*: the planner's checks
of the arguments against each route's input schema; *shape answers*: the compiled call's
field selection and projection) run on the chosen one. Ranking is deterministic: each
candidate gets a key, and lower keys come first. The key's parts, in order, are the rules:

1. ``deprecated`` — an operation its document marks deprecated (``EndpointSpec.deprecated``)
   comes after every current one, so it answers only where no current one serves.
2. ``arguments`` — an operation that takes every argument given and needs no other (its
   required parameters, path parameters included, are all given) comes first.
3. ``broad record`` — among the operations of one tool that search a subject's records by
   filters (they require no argument: an operation that requires one, an id in its path,
   answers about what that argument names), a record that shares an identity field naming
   the subject with a wider one (MP's phonon documents and its summary share
   ``formula_pretty``; every kind of record has a bare ``id`` or ``name``) is a
   specialised record of that subject, and the widest such record (the summary) comes
   before it, unless the question *names* the specialised resource: a question word that
   is a head word of the specialised operation (its name, keywords, summary) but not of the
   broad one, and either no field of the broad one or read by the specialised one as its
   resource where the broad one reads a field ("electronic structure of Si" names the
   electronic-structure resource; "XAS spectra" the XAS resource although the summary has
   an ``xas`` field; "structures containing Ga" names the summary's ``structure`` field,
   which the electronic-structure resource reads as a field too). A needed field that has
   an operation of its own under the specialised resource names it too, and puts it before
   the broad record (part -1: see :func:`names_sub_resource`).
4. ``returns`` — an operation whose path returns something the question does not say, while
   a question word names another segment of its path (``/function/{id}/genes`` for "GO
   functions of FBN1"), comes after the others: see ``returns.py``.
5. ``operation words`` — the lexical score of the question's words over the operation's own
   texts (BM25F, see ``_registry/lexicon.py``), less :data:`UNREQUESTED_WEIGHT` per word of
   the operation's name that the request says neither in its words nor in its argument
   names (``getTaskCountsForProject`` for "tasks in project 1331" with ``project_gid``:
   "counts"), plus :data:`SUBJECT_WEIGHT` per argument whose value the operation's
   parameter fits (its examples' shape, the word labelling it: see ``subject.py``); higher
   first. Each operation's name is read on its own: registering another operation never
   changes this part of its rank.
6. ``field similarity`` — evidence points: 2 per term served by semantic id, name or as the
   route's resource, 1 per alias-only match, +1 when the endpoint projects fields
   server-side; higher first.
7. ``cost`` — ``cost_units``, lower first; then tool and endpoint name (a stable tie-break).

:func:`.reasons.reasons` compares the chosen primary with the other candidates of its pool and says,
for each, the first rule that tells them apart: that is ``Plan.reasons``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import NamedTuple

from .._registry import Route, text_words, word_forms
from .._registry.words import camel_runs
from .argument_words import name_words
from .returns import returns_part

Rank = tuple[int, int, int, int, float, int, float, str, str]
"""deprecated, arguments, broad record, returns, -operation words, -field similarity, cost, tool,
endpoint."""

RULES = (
    "deprecated",
    "arguments",
    "broad record",
    "returns",
    "operation words",
    "field similarity",
    "cost",
    "tool name",
    "endpoint name",
)
"""The rule each part of a :data:`Rank` applies, in order."""


class Scored(NamedTuple):
    """What ranking reads of one candidate before its key is built."""

    route: Route
    points: int
    lexical: float


def takes_arguments(route: Route, given: frozenset[str]) -> bool:
    """True when *route* takes every argument *given* and requires no other."""
    return given <= route.argument_names and route.required <= given


UNREQUESTED_WEIGHT = 0.5
"""What each word of an operation's name that the request does not say takes off its
operation-words score (rule 4)."""

SUBJECT_WEIGHT = 1.0
"""What each argument adds to an operation's operation-words score (rule 4) when the
operation's parameter fits it: its value's shape, or the word labelling it (``subject.py``)."""


def said_forms(words: Sequence[Sequence[str]], given: frozenset[str]) -> frozenset[str]:
    """Every form of the question's ranking *words* and of the words of the argument names
    *given*: what a request says, as rule 4 reads an operation's name against it."""
    said = {form for forms in words for form in forms}
    for name in given:
        for word in name_words(name):
            said.update(word_forms(word))
    return frozenset(said)


@lru_cache(maxsize=16384)
def _name_forms(name: str) -> tuple[tuple[str, ...], ...]:
    """The forms of each distinct word of an operation name."""
    return tuple(dict.fromkeys(word_forms(word) for word in text_words(name)))


def name_penalty(name: str, said: frozenset[str]) -> float:
    """What rule 4 takes off the score of an operation named *name*: :data:`UNREQUESTED_WEIGHT`
    per word of the name the request does not say (no form of it in *said*): "counts" of
    ``getTaskCountsForProject`` for "tasks in project 1331" with ``project_gid``. Such an
    operation answers a more specialised question than the one asked."""
    whole = {part for run, parts in _name_runs(name) if run in said for part in parts}  # "UniProt"
    missing = sum(1 for forms in _name_forms(name) if not any(f in said or f in whole for f in forms))
    return UNREQUESTED_WEIGHT * missing


@lru_cache(maxsize=16384)
def _name_runs(name: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The camelCase runs of an operation name read whole, with their parts: a request that
    says "UniProt" says both words of ``getUniProtMapping``'s "Uni" and "Prot"."""
    return camel_runs(name)


def rank_of(
    scored: Scored,
    given: frozenset[str],
    specialised: bool,
    said: frozenset[str] | None = None,
    spoken: frozenset[str] = frozenset(),
) -> Rank:
    """The ranking key of one candidate (see the module docstring); without *said* (the
    request's words, see :func:`said_forms`) its name words take nothing off; *spoken* (the
    forms of the question's own words) are what rule 4 reads."""
    route = scored.route
    penalty = name_penalty(route.endpoint.name, said) if said is not None else 0.0
    return (
        route.deprecated,
        0 if takes_arguments(route, given) else 1,
        1 if specialised else 0,
        returns_part(route, spoken),
        penalty - scored.lexical,
        -(route.projection_bonus + scored.points),
        route.endpoint.cost_units,
        route.tool.name,
        route.endpoint.name,
    )


Subject = tuple[Route, int]
"""A candidate as rule 3 reads it: its route and how many semantic ids it serves by fields."""


def specialised_routes(
    candidates: Iterable[Subject],
    words: Sequence[Sequence[str]],
    family: Family | None = None,
) -> set[str]:
    """The paths of the candidates that are a specialised record of a subject whose broad
    record is also a candidate, and that the question does not name (rule 3).

    A subject's records are searched by filters (no required argument: a route that requires
    one answers about the record that argument names). A candidate is a record of the same
    subject as a wider one of its tool when they share an identity field that names the
    subject (not a bare ``id`` or ``name``: see :data:`GENERIC_IDENTITY`); the widest such
    candidate is its broad record. With *family* (see :func:`subject_ranks`), a candidate
    the question names through one of its sub-resources is not specialised either."""
    return {path for path, part in subject_ranks(candidates, words, family).items() if part > 0}


Family = Callable[[Route], tuple[Iterable[Route], Sequence[str]]]
"""The other routes of a candidate's tool and the semantic ids the candidate serves of the
need by its fields, as the question names them (not through a term's alternative reading:
"structure" read as ``bandstructure``); read only for a specialised candidate, see
:func:`subject_ranks`."""


def subject_ranks(
    candidates: Iterable[Subject],
    words: Sequence[Sequence[str]],
    family: Family | None = None,
) -> dict[str, int]:
    """Rule 3's part of the rank of each specialised candidate (the others keep 0): 1 for a
    specialised record the question does not name (see :func:`specialised_routes`), -1 for
    one whose needed field has an operation of its own under it (:func:`names_sub_resource`:
    "DOS of mp-13" for the electronic-structure resource, whose ``dos`` records MP serves at
    ``/materials/electronic_structure/dos/``, although the summary has a ``dos`` field too)."""
    groups: dict[str, list[Subject]] = {}
    for subject in candidates:
        route = subject[0]
        if route.identity and not route.required:
            groups.setdefault(route.tool.name, []).append(subject)
    out: dict[str, int] = {}
    for members in groups.values():
        if len(members) < 2:
            continue
        members.sort(key=lambda s: -len(s[0].endpoint.fields))
        for index, subject in enumerate(members):
            route = subject[0]
            width = len(route.endpoint.fields)
            broad = next(
                (
                    b
                    for b in members[:index]
                    if len(b[0].endpoint.fields) > width and _shares_identity(b[0], route)
                ),
                None,
            )
            if broad is None or names_apart(subject, broad, words):
                continue
            if family is not None:
                others, needed = family(route)
                if names_sub_resource(route, broad[0], others, needed):
                    out[route.path] = -1
                    continue
            out[route.path] = 1
    return out


def names_sub_resource(route: Route, broad: Route, others: Iterable[Route], needed: Sequence[str]) -> bool:
    """True when a field *route* serves of the need (*needed*) has an operation of its own
    under *route*'s resource, and the *broad* record's head does not name it: among *others*
    (the other routes of its tool), a sub-resource of *route* (its head holds every head
    word that tells *route* from *broad*) whose name adds to *route*'s words exactly the
    words of the field's name (``electronic_structure/dos`` under ``electronic_structure``
    for ``dos``; ``core/find_structure`` adds "find" to ``structure``: an operation on
    structures, not their records)."""
    head, broad_head = route.lexical.head, broad.lexical.head
    distinctive = head - broad_head
    if not distinctive or not needed:
        return False
    named = {
        words
        for sid in needed
        if (words := frozenset(text_words(sid))) and not words <= head and not words <= broad_head
    }
    if not named:
        return False
    for other in others:
        if other is route or other is broad or not distinctive <= other.lexical.head:
            continue
        if frozenset(text_words(other.endpoint.name)) - head in named:
            return True
    return False


GENERIC_IDENTITY = frozenset({"id", "uuid", "name", "title", "label", "display_name", "full_name"})
"""Identity field names every kind of record has: sharing one says nothing of the subject."""


def _shares_identity(broad: Route, route: Route) -> bool:
    """True when *broad* and *route* identify their records by a common field that names
    its subject (not one of :data:`GENERIC_IDENTITY`)."""
    return any(name in broad.identity and name.casefold() not in GENERIC_IDENTITY for name in route.identity)


def names_apart(subject: Subject, broad: Subject, words: Sequence[Sequence[str]]) -> bool:
    """True when the question names *subject*'s resource: a question word is a head word of
    it but not of *broad*, and either no field of *broad*, or *subject* reads it as its
    resource where *broad* reads a field (it serves fewer semantic ids by fields): "XAS
    spectra" names the XAS resource although the summary has an ``xas`` field; "structures"
    names the summary's ``structure``, which the electronic-structure resource reads as a
    field of its own too."""
    route, serves = subject
    other, broad_serves = broad
    for forms in words:
        if not route.lexical.names(forms) or other.lexical.names(forms):
            continue
        if serves < broad_serves or not any(form in other.matches for form in forms):
            return True
    return False


def reason(primary: Rank, other: Rank, chosen: str, over: str) -> str:
    """Why the candidate ranked *primary* comes before the one ranked *other*, as
    ``rank/<rule>: ...`` (the first part of their keys that differs)."""
    for index, (ours, theirs) in enumerate(zip(primary, other, strict=True)):
        if ours != theirs:
            return f"rank/{RULES[index]}: {chosen} over {over}: {_why(index, ours, theirs)}"
    return f"rank/equal: {chosen} over {over}: same rank"


def _why(index: int, ours: object, theirs: object) -> str:
    rule = RULES[index]
    if rule == "deprecated":
        return "the other is deprecated and a current operation serves"
    if rule == "arguments":
        return "it takes every argument given and requires no other; the other does not"
    if rule == "broad record":
        if isinstance(ours, int) and ours < 0:
            return "the question names its resource: a needed field has an operation of its own under it"
        return "it is the subject's broad record; the other is a specialised one the question does not name"
    if rule == "returns":
        return (
            "the other's path returns something the question does not ask for "
            "(the question names another segment of that path)"
        )
    if rule == "operation words":
        assert isinstance(ours, float) and isinstance(theirs, float)
        return (
            f"the question's words match its own texts better ({-ours:.3g} vs {-theirs:.3g}, "
            f"less {UNREQUESTED_WEIGHT} per word of its name the request does not say, plus "
            f"{SUBJECT_WEIGHT:g} per argument its parameters' examples or descriptions fit)"
        )
    if rule == "field similarity":
        assert isinstance(ours, int) and isinstance(theirs, int)
        return f"its fields name the need more closely ({-ours} vs {-theirs} points)"
    if rule == "cost":
        return f"lower cost_units ({ours} vs {theirs})"
    return f"{rule} order"
