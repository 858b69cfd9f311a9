"""How wide an answer is: which terms of the need narrow it, and what stands in for the missing.

A compiled call selects the need's fields (``shape.py``). Two kinds of term name no field the
question asks the value of, and so do not narrow the answer:

* the **subject**: a term written right before a value the request passes as an argument
  ("metadata of DOI 10.5061/dryad.8515" with ``id="10.5061/dryad.8515"``, "albums by the
  artist 0TnOYISbd1XYRBk9myaseg"): it says which record is meant, not what to show of it;
* a term naming the **records** themselves: every content word of it is a head word of the
  route (its name, keywords, summary), alone or joined with the next ("played" on
  ``get-recently-played``, "is playing" on ``get-the-users-currently-playing-track``,
  "bio assays" on ``getBioassays``): the question asks for the records;
* a **description** asked for (the noun of a request verb, ``purpose.py``: "describe the
  structure of SnO2", "robocrys description of mp-8062"): a description of a subject is the
  record that describes it, its ``description`` text beside the structured facts the text is
  written from (MP's robocrystallographer record: the text and its ``condensed_structure``).

When no term of a call's need narrows, the call selects every field, as for an empty need.

A partial answer (the route serves part of the need) also carries **stand-ins** for what it
misses: the route's fields whose name shares the most words with the missing term ("due date"
-> ``due_on``, ``due_at``; "date" -> ``datePublished``), at most :data:`MAX_STAND_INS`. The
router does not know they mean it; the reader of the answer sees them beside the note that
says what is missing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from .._registry import STOP_WORDS, Route, word_forms
from .._registry.routes import label_words
from .._text import name_words, normalise
from .need import Need
from .purpose import purpose_noun

MAX_STAND_INS = 4
_RANGE = re.compile(r"^(?:min|max|from|to|gte?|lte?)_|_(?:min|max|from|to|gte?|lte?)$")
_SORT_WORDS = frozenset({"sort", "order", "orderby", "sortby"})
"""The most fields that stand in for one missing term."""
_WORDS = re.compile(r"\w+")


def loose_sids(route: Route, need: Need, anywhere: frozenset[tuple[str, str]]) -> tuple[str, ...]:
    """The semantic ids of *need* that do not narrow an answer of *route* (module docstring):
    its terms in *anywhere* (:func:`loose_anywhere`), and those naming *route*'s records."""
    loose: list[str] = []
    for sid, surface in need.pairs():
        words = surface.split()
        if words and ((sid, surface) in anywhere or _names_records(route, words)):
            loose.append(sid)
    return tuple(loose)


def loose_anywhere(need: Need, query: str, arguments: Mapping[str, Any]) -> frozenset[tuple[str, str]]:
    """The terms ``(sid, surface)`` of *need* that narrow no route's answer: a subject written
    right before a value the arguments pass, or a description asked for (read once per plan,
    not per call)."""
    text = normalise(query)
    values = [normalise(str(v)) for v in _values(arguments)]
    return frozenset(
        (sid, surface)
        for sid, surface in need.pairs()
        if (words := surface.split()) and (_before_a_value(text, words, values) or _a_description(words))
    )


def stand_ins(route: Route, surfaces: Iterable[str]) -> tuple[str, ...]:
    """For each missing term (its *surfaces*: the words that named it, its semantic id), the
    route's fields whose name shares the most content words with it, at most
    :data:`MAX_STAND_INS` each."""
    found: list[str] = []
    for surface in surfaces:
        wanted = {f for w in name_words(surface) if _content(w) for f in word_forms(w)}
        if not wanted:
            continue
        scored: list[tuple[int, str]] = []
        for spec in route.endpoint.fields:
            shared = {w for w in name_words(spec.name) if not wanted.isdisjoint(word_forms(w))}
            if shared:
                scored.append((len(shared), spec.name))
        best = max((score for score, _ in scored), default=0)
        found.extend([name for score, name in scored if score == best][:MAX_STAND_INS])
    return tuple(dict.fromkeys(found))


def _content(word: str) -> bool:
    return len(word) >= 3 and word not in STOP_WORDS and not word.isdigit()


def _a_description(words: list[str]) -> bool:
    """The term is one word, the noun of a request verb ("description"): see ``purpose.py``."""
    return len(words) == 1 and purpose_noun(words[0]) != ""


def _names_records(route: Route, words: list[str]) -> bool:
    """Every content word of the term is a head word of *route*, alone or joined with the
    words after it ("bio assays": ``bioassays``): the term names its records."""
    content = [w for w in words if w not in STOP_WORDS]
    position = 0
    while position < len(content):
        end = next(
            (
                end
                for end in range(len(content), position, -1)
                if route.lexical.names(word_forms("".join(content[position:end])))
            ),
            None,
        )
        if end is None:
            return False
        position = end
    return bool(content)


def _writes(text: str, value: str) -> bool:
    return bool(value) and re.search(rf"(?<![a-z0-9]){re.escape(value)}(?![a-z0-9])", text) is not None


def _before_a_value(text: str, words: list[str], values: list[str]) -> bool:
    """The term's words come right before one of the argument *values* in the query *text*."""
    for value in values:
        if len(value) < 2:
            continue
        for found in re.finditer(rf"(?<![a-z0-9]){re.escape(value)}(?![a-z0-9])", text):
            before = _WORDS.findall(text[: found.start()])
            if len(before) >= len(words) and all(
                not set(word_forms(a)).isdisjoint(word_forms(b))
                for a, b in zip(before[-len(words) :], words, strict=True)
            ):
                return True
    return False


def _values(arguments: Mapping[str, Any]) -> Iterable[Any]:
    for value in arguments.values():
        if isinstance(value, list | tuple):
            yield from (v for v in value if isinstance(v, str | int) and not isinstance(v, bool))
        elif isinstance(value, str | int) and not isinstance(value, bool):
            yield value


def constrained_by(route: Route, arguments: Mapping[str, Any], query: str = "") -> list[str]:
    """The route's fields the request's arguments constrain: an argument named as a field
    (a list, ``elements=["Ga", "As"]``, or one value the *query* does not write,
    ``ordering="FM"`` for "ferromagnetic materials"), or as one with a range affix
    (``total_magnetization_min=3``), and the field a sort argument orders by
    (``sort="-created"``): the answer shows that the constraint held, and the order.

    A value the query writes names the subject. Its field comes back too unless its name is
    a label's ("Si band gap" with ``formula="Si"``: the record's label already names Si): the
    key the asker named the subject by ("the protein P04637" with ``accession="P04637"``)
    says which subject each record answers."""
    found: list[str] = []
    text = normalise(query)
    for name, value in arguments.items():
        bare = _RANGE.sub("", name)
        if name in route.field_names:
            if isinstance(value, list) or not label_words(name) or not _writes(text, normalise(str(value))):
                found.append(name)
        elif bare != name and bare in route.field_names:
            found.append(bare)
        elif _SORT_WORDS.intersection(name_words(name)):
            for part in value if isinstance(value, list) else str(value).split(","):
                key = str(part).strip().lstrip("+-")
                if key in route.field_names:
                    found.append(key)
    return found


def whole_records(route: Route) -> list[str]:
    """Every field of the route, but a field read inside another field (``meta.found`` inside
    ``meta``): the whole record once, not its nested values again beside it."""
    fields = route.endpoint.fields
    paths = {tuple(f.wire_path) for f in fields}
    return [
        f.name
        for f in fields
        if not any(tuple(f.wire_path[:end]) in paths for end in range(1, len(f.wire_path)))
    ]


def whole_values(route: Route, names: Iterable[str]) -> list[str]:
    """*names* without repeats, a field read inside a small object field replaced by that
    object (``symmetry.symbol`` -> ``symmetry``, at most ``_registry.values.VALUE_PARTS`` fields inside
    it): the parts of one value are read together (a space group's symbol beside its number).
    Which object holds a field is read at registration (``Route.value_parents``)."""
    parents = route.value_parents
    out: list[str] = []
    for name in names:
        name = parents.get(name, name)
        if name not in out:
            out.append(name)
    return out
