"""Reading query words through the words of the fields' names and descriptions.

A content word no surface covered seeds a *window*: the run of adjacent content words that
meet one field's words (``_registry/fieldwords.py``), never crossing a list boundary. The
best-ranked windows that do not overlap become need terms (see ``need.read_query``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .._registry import STOP_WORDS, FieldProfile, SurfaceIndex, is_content_word
from .._registry.fieldwords import Rank
from .._registry.notations import notation_readings
from .._registry.routes import is_unspaced


def field_word_hits(
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
    place = {i: n for n, i in enumerate(content)}
    alone: dict[str, bool] = {}  # per word: it reads a field on its own (see _with_stand_in)
    readings: list[tuple[Rank, int, list[int], bool]] = []
    for at, i in enumerate(content):
        word = tokens[i]
        if covered_by[i] >= 0 or scoped(word):
            continue
        for profile in field_words.candidates(word):
            if not profile.meets(word):
                continue
            window = _window(at, content, tokens, covered_by, hits, claimed, scoped, profile, breaks)
            if len(profile.names) > 2:
                window = _with_stand_in(
                    window,
                    (content, place),
                    tokens,
                    covered_by,
                    claimed,
                    scoped,
                    profile,
                    breaks,
                    index,
                    alone,
                )
            fresh = [tokens[j] for j in window if covered_by[j] < 0 and not scoped(tokens[j])]
            window_words = [tokens[j] for j in window]
            rank = profile.rank(window_words, fresh)
            if rank is None:
                continue
            named = profile.names_window(window_words, fresh)
            if not named and any(scoped(tokens[j]) and not _in_phrase(j, covered_by, hits) for j in window):
                continue  # scope words join name readings only (in a field's phrase they are no scope)
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


def read_alone(word: str, index: SurfaceIndex, sids: set[str]) -> str | None:
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


def _with_stand_in(
    window: list[int],
    where: tuple[list[int], dict[int, int]],
    tokens: list[str],
    covered_by: list[int],
    claimed: set[int],
    scoped: Callable[[str], bool],
    profile: FieldProfile,
    breaks: frozenset[int],
    index: SurfaceIndex,
    alone: dict[str, bool],
) -> list[int]:
    """*window* grown over one word that stands in for one word of the field's name: "formation
    *enthalpy* per atom" for ``formation_energy_per_atom``. The word reads no field on its own
    (it may meet other fields' words: "enthalpy" meets ``decomposition_enthalpy`` but names it
    only beside "decomposition"), the words either side of it meet the name, and the grown
    window meets every word of a name of three words or more but the one it replaces, which
    stands between the name words either side of the stand-in meet. *where* holds the
    content words' token positions and each one's place among them."""
    content, place = where
    for step, edge in ((1, window[-1]), (-1, window[0])):
        at = place.get(edge)
        if at is None:
            continue
        gap, beyond = at + step, at + 2 * step
        if not (0 <= gap < len(content) and 0 <= beyond < len(content)):
            continue
        i, j = content[gap], content[beyond]
        if (
            {i, j} & claimed
            or covered_by[i] >= 0
            or covered_by[j] >= 0
            or scoped(tokens[i])
            or _crosses(edge, i, breaks)
            or _crosses(i, j, breaks)
            or not profile.meets_name(tokens[j])
            or _reads_a_field(tokens[i], index, alone)
        ):
            continue
        grown = sorted([*window, i, j])
        met = [0] * len(profile.names)
        for k in grown:
            for n, kind in enumerate(profile.name_meeting(tokens[k])):
                met[n] = max(met[n], kind)
        if met.count(0) == 1 and _between(met.index(0), profile, tokens[edge], tokens[j]):
            return grown
    return window


def _between(lacked: int, profile: FieldProfile, one: str, other: str) -> bool:
    """The name word at *lacked* stands between the name words *one* and *other* meet: the
    stand-in takes its place ("formation [energy] atom"), not an end of the name."""
    first = [n for n, kind in enumerate(profile.name_meeting(one)) if kind]
    second = [n for n, kind in enumerate(profile.name_meeting(other)) if kind]
    return any(min(a, b) < lacked < max(a, b) for a in first for b in second)


def _in_phrase(at: int, covered_by: list[int], hits: list[tuple[int, int, str, set[str]]]) -> bool:
    """The word at *at* is part of a field surface of two words or more ("formula unit")."""
    return covered_by[at] >= 0 and hits[covered_by[at]][1] > 1


def _reads_a_field(word: str, index: SurfaceIndex, alone: dict[str, bool]) -> bool:
    found = alone.get(word)
    if found is None:
        candidates = index.field_words.candidates(word)
        found = alone[word] = any(p.meets(word) and p.rank([word], [word]) is not None for p in candidates)
    return found


_CONJUNCTIONS = frozenset({"and", "or", "nor", "versus", "vs", "plus"})
_LIST_MARKS = re.compile(r"[,;:/&|+]")


def list_breaks(text: str, words: list[re.Match[str]], tokens: list[str]) -> frozenset[int]:
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
