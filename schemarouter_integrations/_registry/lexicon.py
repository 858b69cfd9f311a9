"""The lexical index: which endpoint's own texts a query's words match, scored by BM25.

Each route's *document* is the words (see :mod:`.words`) of its endpoint name (camelCase and
snake_case split), ``description`` and ``keywords`` (tags, path segments), stop words left
out. A contract word of 4 letters or more is also indexed under its singular candidates
("issues" under "issue"). The registry adds and removes documents as tools come and go, so
nothing is re-scanned when a plan is compiled.

Score of a route for query words ``w`` (Okapi BM25, ``k1 = 1.2``, ``b = 0.75``)::

    score = sum over w of  max over forms t of w:  weight(t) * idf(t) * bm25_tf(t)
    bm25_tf(t) = tf * (k1 + 1) / (tf + k1 * (1 - b + b * len / avglen))

where the forms of ``w`` are ``w`` itself (weight 1) and its singular candidates (weight 0.9,
so the exact spelling ranks first), ``idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5))`` over the
``N`` registered routes, and scores are rounded to 9 decimals so that ties stay ties whatever
the registration order.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .words import CONTRACT_MIN_LETTERS, singular_forms, text_words

K1 = 1.2
B = 0.75
INFLECTED_WEIGHT = 0.9


@dataclass(frozen=True, slots=True)
class LexicalDocument:
    """A route's indexed words: term -> count (singular candidates included), and its length."""

    terms: dict[str, int]
    length: int

    @classmethod
    def of(cls, texts: Iterable[str]) -> LexicalDocument:
        words = [w for text in texts for w in text_words(text)]
        terms: Counter[str] = Counter()
        for word in words:
            terms[word] += 1
            for form in singular_forms(word, CONTRACT_MIN_LETTERS):
                terms[form] += 1
        return cls(dict(terms), len(words))

    def matches(self, forms: Sequence[str]) -> bool:
        """True when any of a query word's *forms* is one of this document's terms."""
        return any(form in self.terms for form in forms)


class LexicalIndex:
    """Postings of every route's document, maintained incrementally by the registry."""

    def __init__(self) -> None:
        self._postings: dict[str, dict[str, int]] = {}
        self._lengths: dict[str, int] = {}
        self._total = 0

    def add(self, path: str, document: LexicalDocument) -> None:
        """Index *document* under *path* (a path is removed before it is added again)."""
        self._lengths[path] = document.length
        self._total += document.length
        for term, count in document.terms.items():
            self._postings.setdefault(term, {})[path] = count

    def remove(self, path: str, document: LexicalDocument) -> None:
        length = self._lengths.pop(path, None)
        if length is None:
            return
        self._total -= length
        for term in document.terms:
            posting = self._postings.get(term)
            if posting is not None:
                posting.pop(path, None)
                if not posting:
                    del self._postings[term]

    def scores(self, words: Sequence[Sequence[str]]) -> dict[str, float]:
        """BM25 score per route path (only paths scoring above zero) for the query *words*,
        each given as its forms (the word first, then its singular candidates)."""
        count = len(self._lengths)
        if not count or not self._total or not words:
            return {}
        average = self._total / count
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
                for path, tf in posting.items():
                    norm = tf + K1 * (1.0 - B + B * self._lengths[path] / average)
                    score = weight * idf * tf * (K1 + 1.0) / norm
                    if score > best.get(path, 0.0):
                        best[path] = score
            for path, score in best.items():
                totals[path] = totals.get(path, 0.0) + score
        return {path: round(score, 9) for path, score in totals.items() if score > 0.0}
