"""Arguments as evidence of the subject's kind: the value given says which operation's
parameter it fits.

Several operations of a document often take the same argument name (``id``, ``accession``,
``taxon``), each for a different kind of subject: Monarch's ``/bioentity/disease/{id}/...``,
``/bioentity/gene/{id}/...`` and ``/bioentity/case/{id}/...``. The document says which kind
each parameter names, and the request says which kind its value is:

- **the value's shape**: a compact identifier's prefix (``MONDO:0007947`` -> ``mondo:``),
  else its shape (letters ``a``, digits ``9``, other characters as they are:
  ``GCF_000001405.40`` -> ``a_9.9``), compared with the parameter's example values
  (``examples``; the OpenAPI adapter gathers them from the document, ``CURIE identifier of
  disease, e.g. MONDO:0007103`` included). The examples of every parameter of one tool with
  the same name and the same path segment before it (``disease`` of
  ``/bioentity/disease/{id}``) count for each of them: the document shows the kind once,
  not on every operation.
- **the word labelling a written value**: the content word right before a value the question
  writes ("the *member* tib", "the *repository* datacite.datacite", "*taxon* 9606"), compared
  with the words of the parameter's description and its path segment ("DataCite Direct
  *Member*, Consortium Organization, or Consortium account ID.").

Each argument whose value fits a parameter by shape, and each whose label names it, adds
:data:`SUBJECT_WEIGHT` to that operation's operation-words score (rule 4 of ``rank.py``).
The evidence only reorders candidates; it never makes an operation a candidate, so a
question whose words name nothing ("prevalence of Marfan syndrome") keeps its refusal.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .._bounded import BoundedCache
from .._contracts import ToolSpec
from .._contracts.schemas import PATH_SEGMENT
from .._registry import Registry, Route, is_content_word, text_words, word_forms
from .._text import normalise
from .argument_words import value_words
from .ordering import Candidate, Ordering
from .rank import SUBJECT_WEIGHT

_WORDS = re.compile(r"\w+")
_CURIE = re.compile(r"([A-Za-z][A-Za-z0-9_.-]{0,30}):[A-Za-z0-9]")
_LETTERS = re.compile(r"[^\W\d_]+")
_DIGITS = re.compile(r"\d+")
_MAX_ITEMS = 16


def signature(value: Any) -> str | None:
    """The shape of one value: a compact identifier's prefix (``"mondo:"``), else its
    characters' classes (``"a_9.9"``); None for what is neither text nor a number."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return "9"
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    curie = _CURIE.match(text)
    if curie is not None and "://" not in text:
        return curie.group(1).casefold() + ":"
    return _DIGITS.sub("9", _LETTERS.sub("a", text))[:40]


def signatures(value: Any) -> frozenset[str]:
    """The shapes of a value or of a list's items."""
    items = value[:_MAX_ITEMS] if isinstance(value, (list, tuple)) else [value]
    return frozenset(s for item in items if (s := signature(item)) is not None)


@dataclass(frozen=True, slots=True)
class SubjectReading:
    """What a request's arguments say of their subjects: per argument name, the shapes of its
    value and the forms of the words labelling it in the question."""

    shapes: tuple[tuple[str, frozenset[str]], ...] = ()
    labels: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.shapes or self.labels)


def read_subject(query: str, arguments: Mapping[str, Any]) -> SubjectReading:
    """The :class:`SubjectReading` of *arguments* asked with *query*."""
    tokens = _WORDS.findall(normalise(query))
    every = value_words(arguments)
    shapes: list[tuple[str, frozenset[str]]] = []
    labels: list[tuple[str, tuple[tuple[str, ...], ...]]] = []
    for name, value in arguments.items():
        found = signatures(value)
        if found:
            shapes.append((name, found))
        own = value_words({name: value})
        words = [
            tokens[at - 1]
            for at, token in enumerate(tokens)
            if at > 0 and token in own and tokens[at - 1] not in every and is_content_word(tokens[at - 1])
        ]
        if words:
            labels.append((name, tuple(word_forms(w) for w in dict.fromkeys(words))))
    return SubjectReading(tuple(shapes), tuple(labels))


_OWN: BoundedCache[str, dict[str, tuple[frozenset[str], str | None]]] = BoundedCache(16384)
_WORDS_OF: BoundedCache[tuple[str, str], frozenset[str]] = BoundedCache(16384)
_GROUPS: BoundedCache[tuple[str, str], dict[str, frozenset[str]]] = BoundedCache(1024)
"""What the documents say each parameter's value is, keyed by content (an endpoint's
fingerprint, a tool's fingerprint and argument name): a pure memo that can never go stale."""
_NOTHING: tuple[frozenset[str], str | None] = (frozenset(), None)


def parameter_shapes(route: Route, name: str) -> frozenset[str]:
    """The shapes of the examples of *route*'s parameter *name* and of its namesakes under
    the same path segment in its tool."""
    shapes, segment = _own(route).get(name, _NOTHING)
    if segment is None:
        return shapes
    return shapes | _group(route.tool, name).get(segment, frozenset())


def _own(route: Route) -> dict[str, tuple[frozenset[str], str | None]]:
    own = _OWN.get(route.endpoint_fingerprint)
    if own is None:
        own = _OWN.put(route.endpoint_fingerprint, _own_shapes(route.endpoint.input_schema))
    return own


def _own_shapes(schema: Mapping[str, Any]) -> dict[str, tuple[frozenset[str], str | None]]:
    """Per parameter of an input *schema*: the shapes of its examples and its path segment."""
    properties = schema.get("properties")
    out: dict[str, tuple[frozenset[str], str | None]] = {}
    for name, node in properties.items() if isinstance(properties, Mapping) else ():
        if isinstance(node, dict):
            segment = node.get(PATH_SEGMENT)
            out[name] = (frozenset(_example_shapes(node)), segment if isinstance(segment, str) else None)
    return out


def parameter_words(route: Route, name: str) -> frozenset[str]:
    """The forms of the words of *route*'s parameter *name*: its path segment, its description."""
    key = (route.endpoint_fingerprint, name)
    found = _WORDS_OF.get(key)
    if found is None:
        schema = _property(route.endpoint.input_schema, name)
        texts = [t for t in (schema.get(PATH_SEGMENT), schema.get("description")) if isinstance(t, str)]
        found = _WORDS_OF.put(
            key, frozenset(form for text in texts for word in text_words(text) for form in word_forms(word))
        )
    return found


def _group(tool: ToolSpec, name: str) -> dict[str, frozenset[str]]:
    """Path segment -> the shapes of the examples of every parameter *name* of *tool* under it."""
    key = (tool.fingerprint, name)
    groups = _GROUPS.get(key)
    if groups is None:
        gathered: dict[str, set[str]] = {}
        for endpoint in tool.endpoints:
            schema = _property(endpoint.input_schema, name)
            segment = schema.get(PATH_SEGMENT)
            if isinstance(segment, str):
                gathered.setdefault(segment, set()).update(_example_shapes(schema))
        groups = _GROUPS.put(key, {k: frozenset(v) for k, v in gathered.items()})
    return groups


def evidence(route: Route, reading: SubjectReading) -> int:
    """How many of the request's arguments *route*'s parameters fit by shape, plus how many
    of them the question's labelling words name."""
    count = 0
    if reading.shapes:
        own = _own(route)
        for name, shapes in reading.shapes:
            found = own.get(name)
            if found is None or not (found[0] or found[1]):
                continue  # not taken, or nothing shown of it
            if shapes & (found[0] if found[1] is None else parameter_shapes(route, name)):
                count += 1
    for name, labels in reading.labels:
        if name in route.argument_names:
            words = parameter_words(route, name)
            if any(form in words for forms in labels for form in forms):
                count += 1
    return count


def labels_parameter(route: Route, reading: SubjectReading, forms: Sequence[str]) -> bool:
    """True when the question word (*forms*) labels a given value and names *route*'s
    parameter taking it: a word the operation's own texts may lack, but not unmatched."""
    for name, labels in reading.labels:
        if forms in labels and name in route.argument_names:
            words = parameter_words(route, name)
            if any(form in words for form in forms):
                return True
    return False


SortKey = Callable[[Candidate], Any]


def by_subject(ordering: Ordering, reading: SubjectReading, key: SortKey, registry: Registry) -> Ordering:
    """*ordering* for this request: a copy whose candidates' operation-words part counts the
    subject evidence, sorted again by *key* (*ordering* itself, shared between requests,
    stays as it is). Without arguments to read, *ordering* itself.

    Only the routes *registry* knows to show the kind of a given argument, or to take a
    labelled one, can have evidence (``Registry.paths_showing``): the others are not read."""
    if not reading:
        return ordering
    ranked = ordering.ranked
    near = registry.paths_showing((name for name, _ in reading.shapes), (name for name, _ in reading.labels))
    bonus = (
        {
            at: found
            for at, c in enumerate(ranked)
            if c.route.path in near and (found := evidence(c.route, reading))
        }
        if near
        else {}
    )
    if bonus:
        ranked = [
            _with_bonus(c, SUBJECT_WEIGHT * bonus[at]) if at in bonus else c for at, c in enumerate(ranked)
        ]
        ranked.sort(key=key)
    return ordering.reranked(ranked)


def _with_bonus(candidate: Candidate, bonus: float) -> Candidate:
    """A copy of *candidate* whose operation-words part of the rank is *bonus* better."""
    moved = copy.copy(candidate)
    r = candidate.rank
    moved.rank = (r[0], r[1], r[2], r[3], r[4] - bonus, *r[5:])
    return moved


def _property(schema: Mapping[str, Any], name: str) -> dict[str, Any]:
    properties = schema.get("properties")
    found = properties.get(name) if isinstance(properties, Mapping) else None
    return found if isinstance(found, dict) else {}


def _example_shapes(schema: Mapping[str, Any]) -> set[str]:
    examples = schema.get("examples")
    out: set[str] = set()
    if isinstance(examples, list):
        for example in examples[:_MAX_ITEMS]:
            out |= signatures(example)
    return out
