"""The lexical index: which endpoint's own texts a query's words match, scored by BM25F.

Each route's *document* has four fields, built from its contract at registration:

========  ==========================================================  ======  =====
field     words of                                                    weight  ``b``
========  ==========================================================  ======  =====
name      the endpoint name (camelCase and snake_case split)          3       0
keywords  ``keywords`` (OpenAPI: operationId, tags, path segments)    2       0
summary   the description's first sentence (a leading                 2       0.5
          ``operationId <id>:`` or ``GET /path:`` label left out)
body      the rest of the description; then, once each, the words of  1       0.75
          ``context`` (its tags' descriptions) no other field holds
========  ==========================================================  ======  =====

Words are those of :mod:`.words` (stop words and numbers left out); a contract word of 4
letters or more is also indexed under its singular candidates ("issues" under "issue"), and
a run of two or three camelCase parts under its whole ("getUniProtMapping" under "uniprot" as
well as "uni" and "prot", see :func:`.words.camel_runs`; a run is a term of its field, not a
word: field lengths count the parts). The
name, keywords and summary together are the endpoint's **head**: the words that say what its
records are (:attr:`LexicalDocument.head`). The registry adds and removes documents as tools
come and go, so nothing is re-scanned when a plan is compiled.

Score of a route for query words ``w`` (BM25F, ``k1 = 1.2``)::

    score = sum over w of  max over forms t of w:  weight(t) * idf(t) * tf'(t) * (k1 + 1) / (tf'(t) + k1)
    tf'(t) = sum over fields f of  w_f * tf_f(t) / (1 - b_f + b_f * len_f / avglen_f)

where the forms of ``w`` are ``w`` itself (weight 1) and its singular candidates (weight 0.9,
so the exact spelling ranks first), ``idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5))`` over the
``N`` registered routes, ``avglen_f`` is the mean length of field ``f`` over them, and scores
are rounded to 9 decimals so that ties stay ties whatever the registration order.

Why fields: every operation of one API area shares its area's word in its name, tags and
path ("issues" in every ``issues/*`` operation of GitHub); what tells the issues listing
from the milestones listing is its summary ("List repository issues") and a description
that keeps talking about issues. Length normalisation applies to the free texts only, so a
long, on-topic description is no longer outranked by a short, off-topic one, and a word of
the name or summary weighs more than one buried in the description.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .._bounded import BoundedCache
from .glosses import Glosses, GlossIndex
from .words import CONTRACT_MIN_LETTERS, camel_runs, derived_forms, singular_forms, text_words

K1 = 1.2
INFLECTED_WEIGHT = 0.9
FIELDS = ("name", "keywords", "summary", "body")
WEIGHTS = (3.0, 2.0, 2.0, 1.0)
"""Field weights ``w_f``, in :data:`FIELDS` order."""
NORMALISATION = (0.0, 0.0, 0.5, 0.75)
"""Length normalisation ``b_f``, in :data:`FIELDS` order."""
HEAD_FIELDS = 3
"""The first fields (name, keywords, summary) form the head."""

_LABEL = re.compile(r"^(?:operationId \S+|[A-Z]{3,7} /\S*):\s+")
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")

Counts = tuple[int, int, int, int]


def split_description(description: str) -> tuple[str, str]:
    """The summary (first sentence, without a leading ``operationId <id>:`` label) and the rest."""
    text = _LABEL.sub("", description.strip(), count=1)
    end = _SENTENCE_END.search(text)
    if end is None:
        return text, ""
    return text[: end.end()].rstrip(), text[end.end() :].lstrip()


def _terms(words: Iterable[str]) -> Counter[str]:
    terms: Counter[str] = Counter()
    for word in words:
        terms[word] += 1
        for form in singular_forms(word, CONTRACT_MIN_LETTERS):
            terms[form] += 1
    return terms


@dataclass(frozen=True, slots=True)
class LexicalDocument:
    """A route's indexed words: term -> count per field (singular candidates included), the
    length of each field in words, and the head terms (name, keywords, summary)."""

    terms: dict[str, Counts]
    lengths: Counts
    head: frozenset[str]

    @classmethod
    def of(cls, name: str, keywords: Iterable[str], description: str, context: str = "") -> LexicalDocument:
        """The document of an endpoint's texts; endpoints whose texts have the same words
        share one (documents are read-only once built). A word of *context* (what the
        document says of the endpoint outside it: its tags' descriptions) that none of its
        own fields holds counts once in the body, leaving the lengths as they are: context
        adds words an operation does not use, never weight to those it does."""
        summary, body = split_description(description)
        keywords = tuple(keywords)
        fields = (
            tuple(text_words(name)),
            tuple(w for keyword in keywords for w in text_words(keyword)),
            tuple(text_words(summary)),
            tuple(text_words(body)),
        )
        runs = (  # camelCase runs read whole ("UniProt"): terms, not words (lengths unchanged)
            _runs((name,)),
            _runs(keywords),
            _runs((summary,)),
            _runs((body,)),
        )
        extra = tuple(text_words(context)) if context else ()
        key = (fields, runs, extra)
        shared = _DOCUMENTS.get(key)
        if shared is not None:
            return shared
        counted = [_terms(words) for words in fields]
        for counter in counted:  # a derived noun's base is a term too: "elastic" for ``elasticity``
            counter.update(
                {
                    base: n
                    for t, n in list(counter.items())
                    for base in derived_forms(t)
                    if base not in counter
                }
            )
        for counter, whole in zip(counted, runs, strict=True):
            counter.update(whole)
        if extra:
            own = {t for c in counted for t in c}
            counted[3].update(dict.fromkeys((t for t in _terms(extra) if t not in own), 1))
        terms: dict[str, Counts] = {}
        for term in {t for c in counted for t in c}:
            a, b, c, d = (counted[i].get(term, 0) for i in range(4))
            counts = (a, b, c, d)
            terms[term] = _COUNTS.setdefault(counts, counts) if len(_COUNTS) < _MAX_COUNTS else counts
        head = frozenset(t for c in counted[:HEAD_FIELDS] for t in c)
        lengths = (len(fields[0]), len(fields[1]), len(fields[2]), len(fields[3]))
        return _DOCUMENTS.put(key, cls(terms, lengths, head))

    @classmethod
    def empty(cls) -> LexicalDocument:
        return cls({}, (0, 0, 0, 0), frozenset())

    def matches(self, forms: Sequence[str]) -> bool:
        """True when any of a query word's *forms* is one of this document's terms."""
        return any(form in self.terms for form in forms)

    def names(self, forms: Sequence[str]) -> bool:
        """True when any of a query word's *forms* is a head term (name, keywords, summary)."""
        return any(form in self.head for form in forms)


_DOCUMENTS: BoundedCache[
    tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...], tuple[str, ...]], LexicalDocument
] = BoundedCache(4096)
"""Documents by the words and the camelCase runs of their four fields, and their context words."""


def _runs(texts: Iterable[str]) -> tuple[str, ...]:
    """The camelCase runs of *texts*, read whole (:func:`.words.camel_runs`)."""
    return tuple(whole for text in texts for whole, _ in camel_runs(text))


_COUNTS: dict[Counts, Counts] = {}
"""One tuple per distinct term count (small numbers: few distinct tuples)."""
_MAX_COUNTS = 65536


class LexicalIndex:
    """Postings of every route's document, maintained incrementally by the registry."""

    def __init__(self) -> None:
        self._postings: dict[str, dict[str, Counts]] = {}
        self._lengths: dict[str, Counts] = {}
        self._totals = [0, 0, 0, 0]
        self._heads: Counter[str] = Counter()
        """Head term -> how many routes hold it in their name, keywords or summary."""
        self.glosses = GlossIndex()
        """Parameter name words -> what their descriptions say (see :mod:`.glosses`)."""

    def add(self, path: str, document: LexicalDocument, glosses: Glosses = ()) -> None:
        """Index *document* (and its parameters' *glosses*) under *path* (a path is removed
        before it is added again)."""
        self.glosses.add(glosses)
        self._lengths[path] = document.lengths
        for i, length in enumerate(document.lengths):
            self._totals[i] += length
        for term, counts in document.terms.items():
            self._postings.setdefault(term, {})[path] = counts
        self._heads.update(document.head)

    def remove(self, path: str, document: LexicalDocument, glosses: Glosses = ()) -> None:
        lengths = self._lengths.pop(path, None)
        if lengths is None:
            return
        self.glosses.remove(glosses)
        for i, length in enumerate(lengths):
            self._totals[i] -= length
        for term in document.terms:
            posting = self._postings.get(term)
            if posting is not None:
                posting.pop(path, None)
                if not posting:
                    del self._postings[term]
        self._heads.subtract(document.head)
        for term in document.head:
            if self._heads[term] <= 0:
                del self._heads[term]

    def is_head_word(self, forms: Iterable[str]) -> bool:
        """True when any of a word's *forms* is a head term of some route (an operation word)."""
        return any(form in self._heads for form in forms)

    def paths_with(self, term: str) -> Iterable[str]:
        """The routes whose texts hold *term* (any part)."""
        return self._postings.get(term, {}).keys()

    def scores(self, words: Sequence[Sequence[str]]) -> dict[str, float]:
        """BM25F score per route path (only paths scoring above zero) for the query *words*,
        each given as its forms (the word first, then its singular candidates)."""
        count = len(self._lengths)
        if not count or not words:
            return {}
        averages = [total / count if total else 1.0 for total in self._totals]
        norms: dict[str, tuple[float, ...]] = {}
        totals: dict[str, float] = {}
        for forms in words:
            best: dict[str, float] = {}
            for rank, term in enumerate(forms):
                posting = self._postings.get(term)
                if not posting:
                    continue
                df = len(posting)
                idf = math.log(1.0 + (count - df + 0.5) / (df + 0.5))
                weight = 1.0 if rank == 0 else INFLECTED_WEIGHT
                for path, counts in posting.items():
                    norm = norms.get(path)
                    if norm is None:
                        norm = norms[path] = self._norms(self._lengths[path], averages)
                    tf = sum(n * c for n, c in zip(norm, counts, strict=True))
                    score = weight * idf * tf * (K1 + 1.0) / (tf + K1)
                    if score > best.get(path, 0.0):
                        best[path] = score
            for path, score in best.items():
                totals[path] = totals.get(path, 0.0) + score
        return {path: round(score, 9) for path, score in totals.items() if score > 0.0}

    @staticmethod
    def _norms(lengths: Counts, averages: list[float]) -> tuple[float, ...]:
        """``w_f / (1 - b_f + b_f * len_f / avglen_f)`` per field."""
        return tuple(
            w / (1.0 - b + b * length / average)
            for w, b, length, average in zip(WEIGHTS, NORMALISATION, lengths, averages, strict=True)
        )
