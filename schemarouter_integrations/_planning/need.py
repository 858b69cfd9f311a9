"""Reading the data need (semantic ids) from a query or from explicit field names.

Besides the need, a query yields its *content words* (every word that is not a stop word or a
number, see ``_registry/words.py``), split where the script changes ("si의" -> si, 의), and
which of them no field surface covered: the raw material of ``Plan.unmatched``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from .._registry import (
    STOP_WORDS,
    SurfaceIndex,
    is_content_word,
    script_runs,
    singular_forms,
    surface_key,
    unit_words,
    word_forms,
)
from .._registry.compounds import split_compounds
from .._text import normalise
from .fieldwindows import field_word_hits, list_breaks, read_alone
from .terms import Part, Term, holders

_WORDS = re.compile(r"\w+")
_FORMULA = re.compile(r"(?:[A-Z][a-z]?\d*)+")
_ELEMENT = re.compile(r"[A-Z][a-z]?")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
"""Where a camelCase name splits (as contract texts split, ``_registry/words.py``)."""


@dataclass(frozen=True, slots=True)
class Need:
    """The semantic ids of a data need, in order, and for each the surface that named it.

    ``surfaces[i]`` is the normalised name or alias (a :func:`surface_key`) under which
    ``sids[i]`` was found, so evidence can record what the user actually asked for
    ("탄성계수" rather than "elastic_modulus"). Hashable: it keys planning caches.
    """

    sids: tuple[str, ...] = ()
    surfaces: tuple[str, ...] = ()

    @classmethod
    def of(cls, found: Iterable[tuple[str, str]]) -> Need:
        """From ``(semantic id, surface)`` pairs; the first surface of each semantic id wins."""
        first: dict[str, str] = {}
        for sid, surface in found:
            first.setdefault(sid, surface)
        return cls(tuple(first), tuple(first.values()))

    def pairs(self) -> Iterable[tuple[str, str]]:
        """``(semantic id, surface)`` in need order."""
        return zip(self.sids, self.surfaces, strict=True)


@dataclass(frozen=True, slots=True)
class QueryReading:
    """What a query says: its need, its field terms, its content words and those no field
    surface covered.

    ``terms`` are in query order, one per surface, leaving out a term whose semantic ids an
    earlier term already names; ``words`` and ``uncovered`` keep query order without
    duplicates.
    """

    need: Need
    words: tuple[str, ...]
    uncovered: tuple[str, ...]
    terms: tuple[Term, ...] = ()


def need_from_query(query: str, index: SurfaceIndex) -> Need:
    """Semantic ids whose names or aliases occur in *query*, in order of appearance (see
    :func:`read_query`)."""
    return read_query(query, index).need


def read_query(
    query: str,
    index: SurfaceIndex,
    in_scope: Callable[[str], bool] | None = None,
    operation_word: Callable[[str], bool] | None = None,
) -> QueryReading:
    """The need of *query*, with its content words.

    Words of spaced scripts match whole, longest phrase first ("scan band gap" before
    "band gap"); at each length the exact surface is tried first, then a surface named in the
    singular, then the query's last word in the singular ("band gaps" -> "band gap"; the
    rule is in ``_registry/words.py``). Terms of unspaced scripts (Hangul, CJK, ...) match
    as substrings so that particles do not hide them ("탄성계수는"), and are never inflected.
    A surface shared by several semantic ids contributes all of them, in sorted order. Each
    semantic id keeps the surface of its first occurrence.

    Then **field words**: each content word no surface covered, and that is not a scope word
    (*in_scope*), is read through the words of the fields' names and descriptions, as
    ``_registry/fieldwords.py`` documents ("Is Fe2O3 stable?" -> ``is_stable``, "formation
    energy" -> ``formation_energy_per_atom``); such a term has the one semantic id of its
    best reading. A word that is an *operation word* (a head word of some route, see
    *operation_word*) and meets a field's name only weakly ("follow" in ``followers``,
    "popular" in ``popularity``) is evidence for that operation, not a need: alone, it reads
    no field.
    """
    text = split_compounds(normalise(query), index.field_words.is_name_word)  # "spacegroup"
    words = list(_WORDS.finditer(text))
    tokens = [m.group() for m in words]
    units = unit_words(query, tokens)
    hits: list[tuple[int, int, str, set[str]]] = []  # exact matches: position, size, key, sids
    covered_by = [-1] * len(words)
    position = 0
    while position < len(words):
        step = 1
        for size in range(min(index.max_words, len(words) - position), 0, -1):
            hit = _lookup(tokens[position : position + size], index)
            if hit is not None:
                covered_by[position : position + size] = [len(hits)] * size
                hits.append((position, size, hit[0], hit[1]))
                step = size
                break
        position += step
    breaks = list_breaks(text, words, tokens)
    by_words, absorbed = field_word_hits(
        tokens, covered_by, hits, in_scope, index, breaks, units, operation_word
    )
    found: list[tuple[int, str, str]] = []
    terms: list[tuple[int, Term]] = []
    covered = [False] * len(words)
    for number, (position, size, key, sids) in enumerate(hits):
        if number in absorbed:
            continue
        found.extend((words[position].start(), sid, key) for sid in sorted(sids))
        term = _term(key, sids, tokens[position : position + size], index)
        if size == 1 and is_content_word(key):
            other = read_alone(key, index, sids)
            if other is not None:
                term = replace(term, alternatives=(*term.alternatives, other))
        terms.append((words[position].start(), term))
        covered[position : position + size] = [True] * size
    for window, sid, named in by_words:
        at = words[window[0]].start()
        window_words = [tokens[i] for i in window]
        key = " ".join(window_words)
        found.append((at, sid, key))
        terms.append((at, _term(key, {sid}, window_words, index, strong=named, by_words=True)))
        for i in window:
            covered[i] = True
    for key, sids in index.unspaced.items():
        at = text.find(key)
        if at >= 0:
            found.extend((at, sid, key) for sid in sorted(sids))
            terms.append((at, Term(key, tuple(sorted(sids)))))
            end = at + len(key)
            for i, m in enumerate(words):
                if m.start() < end and at < m.end():
                    covered[i] = True
    found.sort(key=lambda item: item[0])
    terms.sort(key=lambda item: item[0])
    content: dict[str, bool] = {}
    for i, m in enumerate(words):
        if i in units and not covered[i]:
            continue  # "2 eV": a unit, no need and no ranking word
        for run in script_runs(m.group()):
            if is_content_word(run):
                content[run] = content.get(run, False) or covered[i]
    return QueryReading(
        need=Need.of((sid, key) for _, sid, key in found),
        words=tuple(content),
        uncovered=tuple(w for w, hit in content.items() if not hit),
        terms=distinct_terms(t for _, t in terms),
    )


def distinct_terms(terms: Iterable[Term]) -> tuple[Term, ...]:
    """*terms* without those whose semantic ids earlier ones already name."""
    seen: set[str] = set()
    out: list[Term] = []
    for term in terms:
        if not set(term.sids) <= seen:
            out.append(term)
            seen.update(term.sids)
    return tuple(out)


def _term(
    key: str,
    sids: set[str],
    window: list[str],
    index: SurfaceIndex,
    *,
    strong: bool = True,
    by_words: bool = False,
) -> Term:
    """The term *key* found at the query words *window*, each word with what it names alone;
    *strong* unless only a field's description words read it; *by_words* when a field's words
    read it (not an exact surface)."""
    ordered = tuple(sorted(sids))
    held = holders(ordered, index.routes_by_key)  # "shear_modulus.vrh": inside shear_modulus
    if len(window) == 1:
        part = Part(word_forms(window[0]), key, ordered)
        return Term(key, ordered, (part,), strong=strong, by_words=by_words, alternatives=held)
    parts: list[Part] = []
    for word in window:
        if not is_content_word(word):
            continue  # "speed of sound": only its content words are read
        alone = _lookup([word], index)
        parts.append(
            Part(word_forms(word), alone[0], tuple(sorted(alone[1]))) if alone else Part(word_forms(word))
        )
    return Term(key, ordered, tuple(parts), strong=strong, by_words=by_words, alternatives=held)


def _lookup(window: list[str], index: SurfaceIndex) -> tuple[str, set[str]] | None:
    """The surface key a window of query words names, exact spelling first."""
    key = " ".join(window)
    for table in (index.spaced, index.inflected):
        sids = table.get(key)
        if sids:
            return key, sids
    if window[-1] in STOP_WORDS:
        return None
    head = " ".join(window[:-1])
    for form in singular_forms(window[-1]):
        inflected = f"{head} {form}" if head else form
        for table in (index.spaced, index.inflected):
            sids = table.get(inflected)
            if sids:
                return inflected, sids
    return None


def need_from_fields(fields: Iterable[str], index: SurfaceIndex) -> Need:
    """Resolve explicit field names, semantic ids or aliases to semantic ids.

    Each semantic id keeps the given name (as its surface key) for evidence. A name the
    registry does not know is kept (as its normalised key) so that planning rejects every
    candidate with a reason naming it instead of silently dropping it.
    """
    found: list[tuple[str, str]] = []
    for name in fields:
        key = surface_key(name)
        sids = index.semantic_ids(name)
        if sids:
            found.extend((sid, key) for sid in sorted(sids))
        else:
            found.append((key or name, key))
    return Need.of(found)
