"""The asked phrase: what a question asks the value of, and whether a route says anything
about it.

The *asked phrase* of "X of Y" is the content words of X, the head phrase before the first
"of" ("altmetric attention score of article 82141425" -> altmetric, attention, score), less
the scope words the arguments already say (see ``reading.py``). A route *mentions* an asked
word when a form of it is a word of the route's own texts (name, keywords, description) or
of one of its fields (name, aliases, description).

**Foreign asked phrases.** When no asked word is read as a field (the partial-answer rules
speak for those) and more than half of them are used by no registered source at all (no
route's texts, no field's name, alias or description), the question asks for something
outside every source's vocabulary. A route that then mentions none of the asked words
would answer about the subject (the article, the drug the arguments name) rather than
about what was asked: it is no candidate, and without one the plan has no primary, so the
refusal names the words no source exposes. A phrase whose words the sources mostly use
("molecular weight" beside a ``molecular_type`` field) may be a rewording of a field's
name: its route still answers, and the answer says which words matched nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .._registry import STOP_WORDS, Registry, Route, is_content_word, word_forms
from .._registry.fieldwords import field_vocabulary
from .._registry.words import meeting_forms, negated_base
from .._text import normalise
from .named import without_possessives

Forms = tuple[str, ...]
_WORDS = re.compile(r"\w+")
_ASKING = frozenset({"of"})
"""The word after which the question names what it is asked about: "the X *of* Y"."""
_WHOLE_RECORD = frozenset({"metadata", "overview"})
"""Asked words that ask for the subject's whole record ("metadata of DOI ..."), like the stop
words "details" and "information": never foreign."""


def asked_words(query: str) -> tuple[Forms, ...]:
    """The forms of the content words whose value *query* asks for: those of the head phrase
    before the first "of" ("melting point of Si" -> melting, point); none without "of"."""
    tokens = _WORDS.findall(normalise(without_possessives(query)))
    for at, token in enumerate(tokens):
        if token in _ASKING:
            return tuple(_forms(w) for w in tokens[:at] if w not in STOP_WORDS and is_content_word(w))
    return ()


def _forms(word: str) -> Forms:
    """The word's forms, and the base a negating prefix negates ("dissimilarity": similarity;
    ``_registry/words.negated_base``): a source about the base speaks of the word too."""
    base = negated_base(word)
    return (*word_forms(word), base) if base else word_forms(word)


def foreign_asked(
    query: str, rest: Sequence[Forms], scope: Callable[[str], bool], registry: Registry
) -> tuple[Forms, ...]:
    """The forms of the asked words of *query*, scope words (*scope*) left out, when the rule
    applies: each is among *rest* (the content words no field covered) and more than half
    of them are used by no registered source; ``()`` otherwise."""
    uncovered = {forms[0] for forms in rest}
    asked: list[Forms] = []
    for forms in asked_words(query):
        if forms[0] in _WHOLE_RECORD:
            continue
        if forms[0] in uncovered:
            asked.append(forms)
        elif not scope(forms[0]):
            return ()  # read as a field, or spelled otherwise in the reading: not foreign
    if not asked:
        return ()
    foreign = sum(1 for forms in asked if not _known(forms, registry))
    return tuple(asked) if 2 * foreign > len(asked) else ()


def mentions(route: Route, asked: Sequence[Sequence[str]]) -> bool:
    """True when *route* mentions one of the *asked* words (see the module docstring)."""
    return any(mentions_word(route, forms) for forms in asked)


def mentions_word(route: Route, forms: Sequence[str]) -> bool:
    """True when a form of a word (its *forms*) is a word of *route*'s texts, one of its
    field surfaces, or a word of a field's name, alias or description."""
    if route.lexical.matches(forms) or any(form in route.matches for form in forms):
        return True
    met = meeting_forms(forms[0])
    for spec in route.endpoint.fields:
        if met & field_vocabulary(spec.name, spec.description):
            return True
        if any(met & field_vocabulary(alias, "") for alias in spec.aliases):
            return True
    return False


def unasked_reason(asked: Sequence[Forms]) -> str:
    """The rejection reason of a route that mentions none of the *asked* words."""
    phrase = " ".join(forms[0] for forms in asked)
    return (
        f"mentions nothing of {phrase!r}, which the question asks for and no source describes: "
        "its records would answer about the subject, not about what was asked"
    )


def _known(forms: Sequence[str], registry: Registry) -> bool:
    """True when a form of the word is in some route's texts or some field's words."""
    lexicon = registry.lexicon
    if any(next(iter(lexicon.paths_with(form)), None) is not None for form in forms):
        return True
    index = registry.index
    return index.field_words.mentions(forms[0]) or any(index.semantic_ids(form) for form in forms)
