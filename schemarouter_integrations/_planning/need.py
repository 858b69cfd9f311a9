"""Reading the data need (semantic ids) from a query or from explicit field names.

Besides the need, a query yields its *content words* (every word that is not a stop word or a
number, see ``_registry/words.py``), split where the script changes ("si의" -> si, 의), and
which of them no field surface covered: the raw material of ``Plan.unmatched``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .._registry import (
    STOP_WORDS,
    SurfaceIndex,
    is_content_word,
    script_runs,
    singular_forms,
    surface_key,
    word_forms,
)
from .._text import normalise
from .terms import Part, Term

_WORDS = re.compile(r"\w+")
_FORMULA = re.compile(r"(?:[A-Z][a-z]?\d*)+")
_ELEMENT = re.compile(r"[A-Z][a-z]?")


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


def read_query(query: str, index: SurfaceIndex) -> QueryReading:
    """The need of *query*, with its content words.

    Words of spaced scripts match whole, longest phrase first ("scan band gap" before
    "band gap"); at each length the exact surface is tried first, then a surface named in the
    singular, then the query's last word in the singular ("band gaps" -> "band gap"; the
    rule is in ``_registry/words.py``). Terms of unspaced scripts (Hangul, CJK, ...) match
    as substrings so that particles do not hide them ("탄성계수는"), and are never inflected.
    A surface shared by several semantic ids contributes all of them, in sorted order. Each
    semantic id keeps the surface of its first occurrence.
    """
    text = normalise(query)
    found: list[tuple[int, str, str]] = []
    terms: list[tuple[int, Term]] = []
    words = list(_WORDS.finditer(text))
    covered = [False] * len(words)
    position = 0
    while position < len(words):
        step = 1
        for size in range(min(index.max_words, len(words) - position), 0, -1):
            hit = _lookup([m.group() for m in words[position : position + size]], index)
            if hit is not None:
                key, sids = hit
                found.extend((words[position].start(), sid, key) for sid in sorted(sids))
                window = [m.group() for m in words[position : position + size]]
                terms.append((words[position].start(), _term(key, sids, window, index)))
                covered[position : position + size] = [True] * size
                step = size
                break
        position += step
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


def _term(key: str, sids: set[str], window: list[str], index: SurfaceIndex) -> Term:
    """The term *key* found at the query words *window*, each word with what it names alone."""
    ordered = tuple(sorted(sids))
    if len(window) == 1:
        return Term(key, ordered, (Part(word_forms(window[0]), key, ordered),))
    parts: list[Part] = []
    for word in window:
        if not is_content_word(word):
            continue  # "speed of sound": only its content words are read
        alone = _lookup([word], index)
        parts.append(
            Part(word_forms(word), alone[0], tuple(sorted(alone[1]))) if alone else Part(word_forms(word))
        )
    return Term(key, ordered, tuple(parts))


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


def argument_words(arguments: Mapping[str, Any]) -> frozenset[str]:
    """The words a request's arguments put in its query: their names and values.

    Values are read recursively (strings, numbers, lists, objects); a value written like a
    chemical formula also gives its element symbols ("GaAs" -> gaas, ga, as).
    """
    out: set[str] = set()
    for name, value in arguments.items():
        out.update(_WORDS.findall(normalise(name)))
        _value_words(value, out, 0)
    return frozenset(out)


def _value_words(value: Any, out: set[str], depth: int) -> None:
    if depth > 8 or value is None or isinstance(value, bool):
        return
    if isinstance(value, str):
        out.update(_WORDS.findall(normalise(value)))
        for part in value.split(","):
            part = part.strip()
            if _FORMULA.fullmatch(part):
                out.update(symbol.casefold() for symbol in _ELEMENT.findall(part))
    elif isinstance(value, (int, float)):
        out.add(str(value).casefold())
    elif isinstance(value, Mapping):
        for item in value.values():
            _value_words(item, out, depth + 1)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _value_words(item, out, depth + 1)


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
