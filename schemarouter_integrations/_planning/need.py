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
    FieldProfile,
    SurfaceIndex,
    is_content_word,
    script_runs,
    singular_forms,
    surface_key,
    unit_words,
    word_forms,
)
from .._registry.compounds import split_compounds
from .._registry.fieldwords import Rank
from .._registry.notations import notation_readings
from .._registry.routes import is_unspaced
from .._text import normalise
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
    breaks = _breaks(text, words, tokens)
    by_words, absorbed = _field_word_hits(
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
            other = _read_alone(key, index, sids)
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


def _field_word_hits(
    tokens: list[str],
    covered_by: list[int],
    hits: list[tuple[int, int, str, set[str]]],
    in_scope: Callable[[str], bool] | None,
    index: SurfaceIndex,
    breaks: frozenset[int] = frozenset(),
    units: frozenset[int] = frozenset(),
    operation_word: Callable[[str], bool] | None = None,
) -> tuple[list[tuple[list[int], str, bool]], set[int]]:
    """Windows of query words read through field words (word positions, semantic id, whether
    the field's name words read it rather than only its description), left to right, and the
    exact matches they took in (see ``_registry/fieldwords.py``)."""
    field_words = index.field_words
    if not len(field_words):
        return [], set()
    scoped = in_scope or (lambda word: False)
    seeds = [i for i, w in enumerate(tokens) if covered_by[i] < 0 and w not in STOP_WORDS and not scoped(w)]
    if not seeds:  # every word matched exactly, or is a stop or scope word: nothing to read
        return [], set()
    content = [
        i for i, w in enumerate(tokens) if is_content_word(w) and not is_unspaced(w) and i not in units
    ]
    free = lambda i: covered_by[i] < 0 and not scoped(tokens[i])  # noqa: E731
    notes = notation_readings(tokens, content, free, lambda a, b: _crosses(a, b, breaks), field_words)
    claimed: set[int] = {i for window, _ in notes for i in window}  # "e_hull": read first
    readings: list[tuple[Rank, int, list[int], bool]] = []
    for at, i in enumerate(content):
        word = tokens[i]
        if covered_by[i] >= 0 or scoped(word):
            continue
        for profile in field_words.candidates(word):
            if not profile.meets(word):
                continue
            window = _window(at, content, tokens, covered_by, hits, claimed, scoped, profile, breaks)
            fresh = [tokens[j] for j in window if covered_by[j] < 0 and not scoped(tokens[j])]
            window_words = [tokens[j] for j in window]
            rank = profile.rank(window_words, fresh)
            if rank is None:
                continue
            named = profile.names_window(window_words, fresh)
            if not named and any(scoped(w) for w in window_words):
                continue  # scope words join name readings only
            weak = len(window) == 1 and max(profile.name_meeting(word)) < 2
            if weak and operation_word is not None and operation_word(word):
                continue  # "Follow ...": the operation's word, weakly a field's: evidence, no need
            readings.append((rank, window[0], window, named))
    out: list[tuple[list[int], str, bool]] = []
    for rank, _, window, named in sorted(readings):
        if claimed.isdisjoint(window):
            claimed.update(window)
            out.append((window, rank[-1], named))
    out.extend((window, sid, True) for window, sid in notes)
    out.sort()
    absorbed = {covered_by[i] for window, _, _ in out for i in window if covered_by[i] >= 0}
    return out, absorbed


MAX_WINDOW_SIDE = 16
"""A window reaches at most this many content words either side of its seed: no field is
named by more, and a question of thousands of words that each meet a field stays linear."""


def _read_alone(word: str, index: SurfaceIndex, sids: set[str]) -> str | None:
    """The semantic id the field words read *word* as on its own by a field's name, when it
    is not one of *sids* (the term's alternative reading; see ``Term.alternatives``)."""
    best: tuple[Rank, str] | None = None
    for profile in index.field_words.candidates(word):
        if not profile.meets(word) or not profile.names_window([word], [word]):
            continue
        rank = profile.rank([word], [word])
        if rank is not None and rank[-1] not in sids and (best is None or rank < best[0]):
            best = (rank, rank[-1])
    return best[1] if best is not None else None


def _window(
    at: int,
    content: list[int],
    tokens: list[str],
    covered_by: list[int],
    hits: list[tuple[int, int, str, set[str]]],
    claimed: set[int],
    scoped: Callable[[str], bool],
    profile: FieldProfile,
    breaks: frozenset[int] = frozenset(),
) -> list[int]:
    """The run of adjacent content words around ``content[at]`` that meet *profile*'s words;
    an exact match is taken in whole, and only when each of its words meets a name word. A
    window never crosses a list boundary (a comma, a semicolon, "and", "or"): the parts of
    "energy per atom and formation energy" name two fields."""
    chosen = [content[at]]
    for step in (-1, 1):
        k = at + step
        while 0 <= k < len(content) and abs(k - at) <= MAX_WINDOW_SIDE:
            i = content[k]
            near = content[k - step]
            if i in claimed or _crosses(near, i, breaks):
                break
            if scoped(tokens[i]) and not profile.meets_name(tokens[i]):
                break  # a scope word joins a window only as a word of the field's name
            hit = covered_by[i]
            if hit >= 0:
                position, size = hits[hit][0], hits[hit][1]
                span = [j for j in range(position, position + size) if j in content]
                meets = profile.meets if len(span) == 1 else profile.meets_name  # one word: as any word
                if not span or not all(meets(tokens[j]) for j in span):
                    break
                chosen.extend(span)
                # the span is next to k: search from there, never from the start (linear overall)
                k = (
                    content.index(span[-1], k) + 1
                    if step > 0
                    else content.index(span[0], max(0, k - size)) - 1
                )
            elif profile.meets(tokens[i]):
                chosen.append(i)
                k += step
            else:
                break
    return sorted(chosen)


_CONJUNCTIONS = frozenset({"and", "or", "nor", "versus", "vs", "plus"})
_LIST_MARKS = re.compile(r"[,;:/&|+]")


def _breaks(text: str, words: list[re.Match[str]], tokens: list[str]) -> frozenset[int]:
    """Token positions with a list boundary just before them: a conjunction token itself, or
    punctuation between it and the previous word."""
    out = {i for i, token in enumerate(tokens) if token in _CONJUNCTIONS}
    out.update(
        i for i in range(1, len(words)) if _LIST_MARKS.search(text, words[i - 1].end(), words[i].start())
    )
    return frozenset(out)


def _crosses(a: int, b: int, breaks: frozenset[int]) -> bool:
    """True when a list boundary lies between token positions *a* and *b*."""
    low, high = (a, b) if a < b else (b, a)
    return any(j in breaks for j in range(low + 1, high + 1))


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
