"""Reading the data need (semantic ids) from a query or from explicit field names."""

from __future__ import annotations

import re
from collections.abc import Iterable

from .._text import normalise
from ..registry import SurfaceIndex, surface_key

_WORDS = re.compile(r"\w+")


def need_from_query(query: str, index: SurfaceIndex) -> tuple[str, ...]:
    """Semantic ids whose names or aliases occur in *query*, in order of appearance.

    Words of spaced scripts match whole, longest phrase first ("scan band gap" before
    "band gap"); terms of unspaced scripts (Hangul, CJK, ...) match as substrings so that
    particles do not hide them ("탄성계수는"). A surface shared by several semantic ids
    contributes all of them, in sorted order.
    """
    text = normalise(query)
    found: list[tuple[int, str]] = []
    words = list(_WORDS.finditer(text))
    position = 0
    while position < len(words):
        step = 1
        for size in range(min(index.max_words, len(words) - position), 0, -1):
            key = " ".join(m.group() for m in words[position : position + size])
            sids = index.spaced.get(key)
            if sids:
                found.extend((words[position].start(), sid) for sid in sorted(sids))
                step = size
                break
        position += step
    for key, sids in index.unspaced.items():
        at = text.find(key)
        if at >= 0:
            found.extend((at, sid) for sid in sorted(sids))
    found.sort(key=lambda item: item[0])
    return _unique(sid for _, sid in found)


def need_from_fields(fields: Iterable[str], index: SurfaceIndex) -> tuple[str, ...]:
    """Resolve explicit field names, semantic ids or aliases to semantic ids.

    A name the registry does not know is kept (as its normalised key) so that planning
    rejects every candidate with a reason naming it instead of silently dropping it.
    """
    resolved: list[str] = []
    for name in fields:
        sids = index.semantic_ids(name)
        resolved.extend(sorted(sids) if sids else [surface_key(name) or name])
    return _unique(resolved)


def _unique(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))
