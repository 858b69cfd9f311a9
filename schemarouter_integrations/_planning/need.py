"""Reading the data need (semantic ids) from a query or from explicit field names."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .._registry import SurfaceIndex, surface_key
from .._text import normalise

_WORDS = re.compile(r"\w+")


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


def need_from_query(query: str, index: SurfaceIndex) -> Need:
    """Semantic ids whose names or aliases occur in *query*, in order of appearance.

    Words of spaced scripts match whole, longest phrase first ("scan band gap" before
    "band gap"); terms of unspaced scripts (Hangul, CJK, ...) match as substrings so that
    particles do not hide them ("탄성계수는"). A surface shared by several semantic ids
    contributes all of them, in sorted order. Each semantic id keeps the surface of its
    first occurrence.
    """
    text = normalise(query)
    found: list[tuple[int, str, str]] = []
    words = list(_WORDS.finditer(text))
    position = 0
    while position < len(words):
        step = 1
        for size in range(min(index.max_words, len(words) - position), 0, -1):
            key = " ".join(m.group() for m in words[position : position + size])
            sids = index.spaced.get(key)
            if sids:
                found.extend((words[position].start(), sid, key) for sid in sorted(sids))
                step = size
                break
        position += step
    for key, sids in index.unspaced.items():
        at = text.find(key)
        if at >= 0:
            found.extend((at, sid, key) for sid in sorted(sids))
    found.sort(key=lambda item: item[0])
    return Need.of((sid, key) for _, sid, key in found)


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
