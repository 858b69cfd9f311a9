"""Purpose words: a request verb whose noun names the record that answers.

"describe the structure of SnO2" does not ask for the structure (MP's summary holds it as a
pymatgen object): it asks for a *description* of it, and MP's robocrystallographer records
carry exactly that, a ``description`` field ("Description text from robocrystallographer").
The verb "describe" is a request verb (a stop word, ``_registry/words.py``), so on its own it
names nothing; its noun does. The rule reads the noun by English morphology, never from a
table of words per provider:

1. **the noun of a request verb** (:data:`NOMINALISATIONS`, suffix rules of English
   derivation: ``-scribe`` -> ``-scription``): "describe" (and its inflections "describes",
   "described", "describing") has the noun "description"; a question may also write the noun
   itself ("text description of ...", "descriptions of ...");
2. **the noun names a field**: the noun (or its singular) is the exact surface of some
   registered field. Without such a field nothing changes: "describe project 1331" asks for
   the project's record, as before;
3. **its object is the topic, not the need**: the field terms written after the purpose word
   ("the structure of SnO2", "their crystal structures") say what the description is about.
   They leave the need (their words still rank the operations whose texts hold them), and
   the noun's field is the need in their place.

A question whose purpose word is followed by no field term ("robocrys description of
mp-8062", "descriptions of genes 672 and 7157") reads as before: the noun is then already
the need, or the label of a value.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from .._registry import STOP_WORDS, SurfaceIndex, singular_forms
from .._text import normalise
from .terms import Term

NOMINALISATIONS = (("scribe", "scription"),)
"""Verb endings and the ending of their noun (English derivation: describe -> description,
transcribe -> transcription)."""
INFLECTIONS = ("s", "d", "ing")
"""Endings of a verb's inflections ("describes", "described", "describing" -> describe)."""
_WORDS = re.compile(r"\w+")


@lru_cache(maxsize=4096)
def purpose_noun(word: str) -> str:
    """The noun a purpose *word* names: the nominalisation of a request verb (a stop word),
    the word being that verb, one of its inflections, or the noun itself (singular or
    plural); "" when it is no purpose word."""
    verbs = [word, *(word[: -len(e)] for e in INFLECTIONS if word.endswith(e))]
    if word.endswith("ing"):
        verbs.append(word[:-3] + "e")  # "describing" -> describe
    for verb in verbs:
        if verb in STOP_WORDS:
            noun = _nominal(verb)
            if noun:
                return noun
    for form in (word, *singular_forms(word)):
        for ending, noun_ending in NOMINALISATIONS:
            if form.endswith(noun_ending) and (form[: -len(noun_ending)] + ending) in STOP_WORDS:
                return form
    return ""


def _nominal(verb: str) -> str:
    for ending, noun_ending in NOMINALISATIONS:
        if verb.endswith(ending):
            return verb[: -len(ending)] + noun_ending
    return ""


def purpose_terms(query: str, terms: Sequence[Term], index: SurfaceIndex) -> tuple[Term, ...] | None:
    """*terms* read with the question's purpose word (see the module docstring), or None when
    the rule does not apply (no purpose word, its noun names no field, or no field term
    follows it)."""
    tokens = _WORDS.findall(normalise(query))
    for at, token in enumerate(tokens):
        noun = purpose_noun(token)
        if not noun or not index.spaced.get(noun):
            continue
        after = set(tokens[at + 1 :])
        topic = [t for t in terms if t.parts and t.parts[0].forms[0] in after and t.key != noun]
        if not topic:
            return None
        own = [t for t in terms if t.key == noun] or [Term(noun, tuple(sorted(index.spaced[noun])), ())]
        kept = [t for t in terms if t not in topic and t.key != noun]
        return (*own, *kept)
    return None
