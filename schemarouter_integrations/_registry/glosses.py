"""Parameter glosses: what a document's own parameter descriptions say a name word means.

Documents name a filter with one word and explain it with others: Asana's task search takes
``is_blocked``, described "Filter to tasks with incomplete dependencies", and the operation
that lists what blocks a task is ``getDependenciesForTask``. A question "what is task 1204
blocked by" writes the parameter's word, which no operation's own texts use. The document has
said what the word means, so the question's word ranks operations by that meaning too.

Read when a route is registered (never when a plan is compiled):

- a **name word** of a parameter (its name split at camelCase and snake_case, 4 letters or
  more, no stop word) that its description does not itself use (in any singular form) is
  *glossed* by the description;
- the **gloss** is the description's content words (:func:`.words.text_words`) minus the
  words of the owning operation's head (name, keywords, summary: the resource it filters,
  "tasks") and minus the name's own words; descriptions longer than :data:`MAX_GLOSS_WORDS`
  content words explain more than the name and gloss nothing.

A query word that no registered text uses ranks by the gloss words that are operation words
(a head term of some route; see ``_planning/reading.py``), so a gloss never adds a word that
names no operation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from .._text import name_words
from .words import CONTRACT_MIN_LETTERS, STOP_WORDS, singular_forms, text_words

MAX_GLOSS_WORDS = 8
"""Content words of a parameter description at most for it to gloss the parameter's name."""

Glosses = tuple[tuple[str, tuple[str, ...]], ...]
"""(name word, gloss words) pairs of one route."""


def _forms(word: str) -> set[str]:
    return {word, *singular_forms(word, CONTRACT_MIN_LETTERS)}


def parameter_glosses(input_schema: Mapping[str, Any], head: Iterable[str]) -> Glosses:
    """The glosses of the parameters of *input_schema* (JSON Schema ``properties``) for an
    operation whose head terms are *head*."""
    properties = input_schema.get("properties")
    if not isinstance(properties, Mapping):
        return ()
    own = set(head)
    out: list[tuple[str, tuple[str, ...]]] = []
    for name, schema in properties.items():
        description = schema.get("description") if isinstance(schema, Mapping) else None
        if not isinstance(name, str) or not isinstance(description, str):
            continue
        described = text_words(description)
        if not described or len(described) > MAX_GLOSS_WORDS:
            continue
        used = {form for word in described for form in _forms(word)}
        words = [w for w in name_words(name) if len(w) >= CONTRACT_MIN_LETTERS and w not in STOP_WORDS]
        named = {form for word in words for form in _forms(word)}
        for word in words:
            if _forms(word) & used:
                continue
            gloss = tuple(dict.fromkeys(w for w in described if not (_forms(w) & (own | named))))
            if gloss:
                out.append((word, gloss))
    return tuple(out)


class GlossIndex:
    """Name word -> gloss word -> how many registered parameters gloss it so (incremental)."""

    def __init__(self) -> None:
        self._glosses: dict[str, Counter[str]] = {}

    def add(self, glosses: Glosses) -> None:
        for word, gloss in glosses:
            self._glosses.setdefault(word, Counter()).update(gloss)

    def remove(self, glosses: Glosses) -> None:
        for word, gloss in glosses:
            counter = self._glosses.get(word)
            if counter is None:
                continue
            counter.subtract(gloss)
            for term in gloss:
                if counter[term] <= 0:
                    del counter[term]
            if not counter:
                del self._glosses[word]

    def of(self, word: str) -> tuple[str, ...]:
        """The gloss words of the name *word*, most frequent first (ties by spelling)."""
        counter = self._glosses.get(word)
        if not counter:
            return ()
        return tuple(sorted(counter, key=lambda term: (-counter[term], term)))
