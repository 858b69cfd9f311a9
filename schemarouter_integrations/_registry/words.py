"""Words of queries and contracts: tokens, stop words and the plural rule they share.

**Plural rule** (English only). A word of letters only, not of an unspaced script (Hangul,
CJK, ...), has these *singular candidates*, tried in this order:

1. drop ``s``, except after ``s``, ``u`` or ``i`` (gaps -> gap, cases -> case, titles ->
   title; class, status, basis stay);
2. drop ``es`` where ``s``, ``x``, ``z``, ``ch`` or ``sh`` is left (statuses -> status,
   boxes -> box, matches -> match);
3. ``ies`` -> ``y`` (properties -> property, energies -> energy);

and a few irregular plurals of science and business words have their singular
(:data:`IRREGULAR`: moduli -> modulus, indices -> index, analyses -> analysis, ...).

Query words of 3 letters or more get candidates (ids -> id); contract words (field names,
aliases, endpoint texts) only from 4 letters, so a short name (``cas``, ``gas``) never turns
into another word (``ca``, ``ga``). Two spellings match when one equals the other or one of its
candidates, and the exact spelling is always tried first: a candidate only counts when it is a
real word of a contract, so a wrong candidate (cases -> "cas") never matches by itself unless
such a field exists and no better one does. Derived forms (created / creation, measure /
measurement) are not guessed: an alias says so.

**Derived forms** (English only, used by field-word matching, :mod:`.fieldwords`, never by
exact surfaces). A word of 6+ letters ending in a noun suffix of a property has its base
as a further candidate (:data:`DERIVATIONS`): ``-bility`` -> ``-ble`` (stability -> stable),
``-ility`` -> ``-ile`` (ductility -> ductile), ``-ivity`` -> ``-ive`` (conductivity ->
conductive), ``-icity`` -> ``-ic`` (elasticity -> elastic), ``-ness`` dropped (hardness ->
hard), and the nouns of verbs ``-ization`` -> ``-ize`` (polarization -> polarize), ``-ition``
-> ``-e`` (decomposition -> decompose, definition -> define). Both sides are derived, so a
question's "stable" meets a field named ``stability``, "stability" meets ``is_stable`` and
"decomposition" meets ``decomposes_to`` strongly (ahead of ``composition``, which it meets
only weakly, by its ending). A wrong base ("addition" -> "adde") meets no field word.

**British spellings** (English only, used by field-word matching as derived forms are). A
word of 6+ letters with a British ending has its American spelling as a further form
(:data:`SPELLINGS`): ``-isation`` -> ``-ization``, ``-ise``/``-ised``/``-ising`` ->
``-ize``/..., ``-yse`` -> ``-yze``, ``-our`` -> ``-or``, ``-tre`` -> ``-ter``
(magnetisation -> magnetization, analyse -> analyze, colour -> color, centre -> center).
Both sides are spelled so, so a British question meets an American document and the
reverse. A wrong form ("precise" -> "precize") meets no field word, and so does nothing.

**Stop words** (:data:`STOP_WORDS`): English function words, question words ("what's" read as
whats too), request verbs
(show, give, list, find, describe, ...), generic nouns (data, value, record, ...), framing
words that relate a constraint rather than name a value (between, containing, including,
within, ...), plus the
particles of Korean, Japanese and Chinese that stand alone after a script change. They never
count as unmatched and never score an endpoint.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .._text import is_unspaced_char, normalise

QUERY_MIN_LETTERS = 3
CONTRACT_MIN_LETTERS = 4

_STOP_TEXT = """
    a an the of for in on at to from by with without into about over under per as and or but not
    no nor vs versus than then so if
    what which who whom whose when where why how whats whos wheres whens whys hows thats theres heres
    is are was were be been being am do does did done has have had having can could would will
    shall should may might must
    i me my mine we us our you your it its this that these those there here they them their
    he she his her any all some each every both either other such same own
    show give get gets got find fetch list lists tell say know look lookup search return returns
    need want like see let please thanks thank kindly
    data value values info information detail details record records result results entry
    entries thing things something anything everything
    also just only very much many more most less few one
    between within among across containing contains contain including includes include having
    describe describes explain
    의 은 는 이 가 을 를 에 에서 와 과 도 로 으로 및 の は が を に で と も や 的 是 和 吗 了 在
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())
"""Words that never count as unmatched and never score an endpoint (documented above)."""

IRREGULAR = {
    "analyses": "analysis",
    "children": "child",
    "criteria": "criterion",
    "indices": "index",
    "matrices": "matrix",
    "moduli": "modulus",
    "people": "person",
    "radii": "radius",
    "vertices": "vertex",
}
"""Irregular plurals and their singular (tried after the regular candidates)."""

DERIVATIONS = (
    ("bility", "ble"),
    ("ility", "ile"),
    ("ivity", "ive"),
    ("icity", "ic"),
    ("ness", ""),
    ("ization", "ize"),
    ("ition", "e"),
)
"""Noun suffixes and the ending of their base (documented above), tried in this order."""
DERIVED_MIN_LETTERS = 6

SPELLINGS = (
    ("isations", "izations"),
    ("isation", "ization"),
    ("ising", "izing"),
    ("ised", "ized"),
    ("ises", "izes"),
    ("ise", "ize"),
    ("ysing", "yzing"),
    ("ysed", "yzed"),
    ("yse", "yze"),
    ("ours", "ors"),
    ("our", "or"),
    ("tres", "ters"),
    ("tre", "ter"),
)
"""British endings and their American spelling (documented above), tried in this order."""
SPELLING_MIN_LETTERS = 6

_WORDS = re.compile(r"\w+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_DIGITS = re.compile(r"\d+")


@lru_cache(maxsize=16384)
def singular_forms(word: str, min_letters: int = QUERY_MIN_LETTERS) -> tuple[str, ...]:
    """The singular candidates of a normalised *word*, in the order they are tried."""
    if len(word) < min_letters or not word.isalpha() or any(is_unspaced_char(c) for c in word):
        return ()
    out: list[str] = []
    if word.endswith("s") and word[-2:-1] not in ("s", "u", "i"):
        out.append(word[:-1])
    if word.endswith("es") and len(word) > min_letters and word[:-2].endswith(("s", "x", "z", "ch", "sh")):
        out.append(word[:-2])
    if word.endswith("ies") and len(word) > min_letters + 1:
        out.append(word[:-3] + "y")
    if word in IRREGULAR:
        out.append(IRREGULAR[word])
    return tuple(out)


def word_forms(word: str, min_letters: int = QUERY_MIN_LETTERS) -> tuple[str, ...]:
    """*word* followed by its singular candidates."""
    return (word, *singular_forms(word, min_letters))


@lru_cache(maxsize=16384)
def derived_forms(word: str) -> tuple[str, ...]:
    """The base of a normalised *word* by :data:`DERIVATIONS` (the first suffix that fits), or ()."""
    if len(word) < DERIVED_MIN_LETTERS or not word.isalpha():
        return ()
    for suffix, ending in DERIVATIONS:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return (word[: -len(suffix)] + ending,)
    return ()


NEGATING_PREFIXES = ("dis", "non")
"""Prefixes that negate the word they begin (dissimilarity, nonlinear): the negated measure
lives where its base does (a record of *similarity* scores holds the *dissimilarity* of each
match)."""
NEGATED_BASE_MIN_LETTERS = 6
"""The base left after a negating prefix has at least this many letters ("discount" keeps its
"count", "display" its "play": no base of theirs is read)."""


@lru_cache(maxsize=16384)
def negated_base(word: str) -> str:
    """The base of a normalised *word* that a :data:`NEGATING_PREFIXES` prefix negates
    ("dissimilarity" -> similarity), or "". Ranking reads the base only for a word no
    registered document uses (``_planning/reading.py``)."""
    for prefix in NEGATING_PREFIXES:
        base = word[len(prefix) :]
        if word.startswith(prefix) and len(base) >= NEGATED_BASE_MIN_LETTERS and base.isalpha():
            return base
    return ""


@lru_cache(maxsize=16384)
def spelling_forms(word: str) -> tuple[str, ...]:
    """The American spelling of a British-spelled normalised *word* by :data:`SPELLINGS` (the
    first ending that fits), or ()."""
    if len(word) < SPELLING_MIN_LETTERS or not word.isalpha():
        return ()
    for ending, american in SPELLINGS:
        if word.endswith(ending):
            return (word[: -len(ending)] + american,)
    return ()


@lru_cache(maxsize=16384)
def meeting_forms(word: str, min_letters: int = QUERY_MIN_LETTERS) -> frozenset[str]:
    """*word* and its American spelling, their singular candidates and the derived base of
    each: the forms under which field-word matching (:mod:`.fieldwords`) compares a
    question's word with a field's."""
    forms = [f for spelled in (word, *spelling_forms(word)) for f in word_forms(spelled, min_letters)]
    return frozenset((*forms, *(base for form in forms for base in derived_forms(form))))


def script_runs(word: str) -> list[str]:
    """*word* split where it changes between spaced and unspaced scripts ("si의" -> si, 의)."""
    runs: list[str] = []
    start = 0
    for index in range(1, len(word)):
        if is_unspaced_char(word[index]) != is_unspaced_char(word[index - 1]):
            runs.append(word[start:index])
            start = index
    runs.append(word[start:])
    return runs


def is_content_word(word: str) -> bool:
    """Not a stop word and not a number."""
    return word not in STOP_WORDS and not _DIGITS.fullmatch(word)


def unit_words(query: str, tokens: list[str]) -> frozenset[int]:
    """Positions of *tokens* (the normalised words of *query*) that are **unit words**: a word
    right after a number that is short (3 letters or fewer: "ev", "k", "nm") or written in
    mixed case in the query ("eV", "GPa", "meV"). "between 1 and 2 eV" asks for no ``ev``
    field: a unit word is neither a need, nor a ranking word, nor unmatched."""
    mixed = {w.casefold() for w in _WORDS.findall(query) if not w.islower() and not w.isupper()}
    return frozenset(
        i
        for i in range(1, len(tokens))
        if _DIGITS.fullmatch(tokens[i - 1]) and (len(tokens[i]) <= 3 or tokens[i] in mixed)
    )


def text_words(text: str) -> list[str]:
    """Normalised words of a contract text: camelCase and snake_case split ("listIssues" ->
    list, issues), stop words and numbers left out."""
    return [w for w in _WORDS.findall(normalise(_CAMEL.sub(" ", text))) if is_content_word(w)]


_TOKEN = re.compile(r"[^\W_]+")
MAX_RUN_PARTS = 3
"""The most camelCase parts a run read whole has (see :func:`camel_runs`): "UniProtKB"."""


@lru_cache(maxsize=16384)
def camel_runs(text: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each run of two to :data:`MAX_RUN_PARTS` neighbouring camelCase parts of a word of
    *text*, read whole (normalised), with its parts: "getUniProtMapping" gives ("getuni",
    (get, uni)), ("uniprot", (uni, prot)), ("protmapping", ...) and the runs of three. A
    question writes "UniProt", "PubChem" or "DataCite" as one word where :func:`text_words`
    splits the contract's name in two. A run that is a stop word or a number gives none."""
    out: list[tuple[str, tuple[str, ...]]] = []
    for token in _TOKEN.findall(text):
        parts = [normalise(part) for part in _CAMEL.sub(" ", token).split()]
        for start in range(len(parts) - 1):
            for end in range(start + 2, min(start + MAX_RUN_PARTS, len(parts)) + 1):
                whole = "".join(parts[start:end])
                if is_content_word(whole):
                    out.append((whole, tuple(parts[start:end])))
    return tuple(dict.fromkeys(out))
