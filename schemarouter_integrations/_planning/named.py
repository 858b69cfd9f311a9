"""Words that name the question's subject: scope words, never needs nor unmatched.

A question says what it asks about by name as often as by the values it is given: "orthologs
of FBN1" with ``id="HGNC:3603"``, "materials containing iron and oxygen" with
``elements=["Fe", "O"]``, "who are the authors of the Si structure" with
``material_ids="mp-149"``. Those words name the subject the arguments already pin down; read
as fields or ranking words they would send the question elsewhere, and reported unmatched
they would say the answer ignored them. So they join the *scope words* of ``reading.py``:

1. **Chemical words** (``chemistry.py``: a formula as written, "SnO2"; an element's name,
   "iron", "silicon's"; an anion's name, "carbide", "oxides") whose element symbols the
   arguments give (``elements=["Fe", "O"]``, ``chemsys="C-Si"``, a formula, a filter
   naming them).
2. **Names of a subject given by its code**: when an argument's value is a code the question
   does not write (one token with a digit: ``mp-149``, ``HGNC:3603``, a Spotify id), the
   question names that subject otherwise: any chemical word, and any *proper name* outside
   the head phrase the question asks the value of (see rule 3) and after its first word: a
   word written with a capital, or a letter followed by digits ("Pitbull", "FBN1"; not the
   "Fermi" of "Fermi level of Fe").
3. **A value's word in another form**: a question word of 4 letters or more that shares a
   form with a word of an argument's value ("stable" with ``filter="_oqmd_stability=0"``:
   the derivations of ``_registry/words.py``).
4. **The subject's class nouns** (:data:`SUBJECT_NOUNS`: "materials", "compounds",
   "structure", ...), when a word of rule 1 or 2 names the subject and the noun is not what
   the question asks the value of (it is not in the head phrase before "of": "the structure
   of SnO2" asks for the structure; "the authors of the Si structure" does not). Outside the
   subject phrase (after "of") such a noun may name what is returned ("structures most like
   GaAs"): it is the subject's only when no registered source uses it ("materials" beside
   OPTIMADE's structures).
5. **Words that qualify the subject**: a word written right before a lower-case word of rules
   1 or 4 ("binary oxides of iron", "ferromagnetic compounds of Fe"; not the "named" of
   "entities named Si") that no registered source uses:
   it says which of the subject's records are meant, never a value of them (a source that
   uses the word reads it as before).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .._registry import STOP_WORDS
from .._registry.words import meeting_forms
from .._text import normalise
from .argument_words import value_words
from .chemistry import SYMBOLS, chemical_symbols, formula_symbols

_TOKENS = re.compile(r"[\w'\u2019]+")
_PARTS = re.compile(r"[A-Za-z0-9]+")
_DIGIT = re.compile(r"\d")
_POSSESSIVE = re.compile(r"['\u2019]s?$")
_MAX_ITEMS = 64
_MIN_FORM = 4

SUBJECT_NOUNS = frozenset(
    {"material", "materials", "compound", "compounds", "structure", "structures", "crystal", "crystals"}
    | {"polymorph", "polymorphs", "solid", "solids", "substance", "substances"}
)
"""General nouns for a chemical substance: the class of a subject named by its formula."""


_OWNER = re.compile(r"(?<=\w)['\u2019]s\b")


def without_possessives(query: str) -> str:
    """*query* with the possessive "'s" dropped ("silicon's crystal structure" -> silicon):
    normalising would otherwise join it to its word ("silicons")."""
    return _OWNER.sub("", query) if "'" in query or "\u2019" in query else query


def subject_words(
    query: str, arguments: Mapping[str, Any], known: Callable[[str], bool] | None = None
) -> frozenset[str]:
    """The normalised words of *query* that name the subject its *arguments* give (see the
    module docstring); empty without arguments. *known* says whether a registered source uses
    a word (a class noun outside the subject phrase is the subject's only when none does)."""
    if not arguments:
        return frozenset()
    written = _TOKENS.findall(query)
    words = [normalise(_POSSESSIVE.sub("", token)) for token in written]
    given = _given_symbols(arguments.values())
    coded = _unwritten_code(arguments, set(words))
    out: set[str] = set()
    asked = _asked_head(words)
    for at, token in enumerate(written):
        symbols = chemical_symbols(token)
        chemical = symbols is not None and (coded or (given and symbols <= given))
        named = coded and at > 0 and at not in asked and _proper_name(token) and words[at] not in STOP_WORDS
        if chemical or named:
            out.add(words[at])
    if out:
        after = _after_of(words)
        out.update(
            w
            for at, w in enumerate(words)
            if w in SUBJECT_NOUNS and at not in asked and (at in after or known is None or not known(w))
        )
    if out and known is not None:
        out.update(
            words[at - 1]
            for at, w in enumerate(words)
            if at > 0
            and w in out
            and written[at].islower()
            and _qualifier(words[at - 1])
            and not known(words[at - 1])
        )
    said = _value_forms(arguments)
    out.update(w for w in words if len(w) >= _MIN_FORM and not meeting_forms(w).isdisjoint(said))
    return frozenset(out)


def _qualifier(word: str) -> bool:
    return len(word) >= _MIN_FORM and word.isalpha() and word not in STOP_WORDS


def _value_forms(arguments: Mapping[str, Any]) -> frozenset[str]:
    """Every meeting form of the words of the argument values of 4 letters or more."""
    return frozenset(
        form for word in value_words(arguments) if len(word) >= _MIN_FORM for form in meeting_forms(word)
    )


def _proper_name(token: str) -> bool:
    """A word written as a name: a capital first letter, or a letter first and digits after
    ("Pitbull", "FBN1"; not "2D")."""
    bare = _POSSESSIVE.sub("", token)
    return bare[:1].isupper() or (bare[:1].isalpha() and _DIGIT.search(bare) is not None)


def _after_of(words: list[str]) -> set[int]:
    """The positions of the subject phrase: after the first "of"."""
    return set(range(words.index("of") + 1, len(words))) if "of" in words else set()


def _asked_head(words: list[str]) -> set[int]:
    """The positions of the head phrase before the first "of" (what is asked the value of)."""
    return set(range(words.index("of"))) if "of" in words else set()


def _given_symbols(values: Iterable[Any]) -> frozenset[str]:
    """The element symbols the argument values write (formulas, symbols, chemical systems)."""
    out: set[str] = set()
    for text in _strings(values, 0):
        for part in _PARTS.findall(text):
            if part in SYMBOLS:  # "C" of "C-Si": one letter alone is a symbol in an argument
                out.add(part)
            elif (symbols := formula_symbols(part)) is not None:
                out |= symbols
    return frozenset(out)


def _unwritten_code(arguments: Mapping[str, Any], written: set[str]) -> bool:
    """True when an argument's value is a code (one token with a digit) the question does not
    write: the question names that subject by other words, if at all."""
    for value in arguments.values():
        for text in _strings([value], 0):
            code = text.strip()
            if code and " " not in code and _DIGIT.search(code) and not _written(code, written):
                return True
    return False


def _written(code: str, written: set[str]) -> bool:
    parts = re.findall(r"\w+", normalise(code))
    return bool(parts) and all(part in written for part in parts)


def _strings(values: Iterable[Any], depth: int) -> Iterable[str]:
    """The strings of argument values (lists and objects read through, a comma list split)."""
    if depth > 4:
        return
    for count, value in enumerate(values):
        if count >= _MAX_ITEMS:
            return
        if isinstance(value, str):
            yield from (part for part in value.split(",") if part.strip())
        elif isinstance(value, Mapping):
            yield from _strings(value.values(), depth + 1)
        elif isinstance(value, (list, tuple)):
            yield from _strings(value, depth + 1)
