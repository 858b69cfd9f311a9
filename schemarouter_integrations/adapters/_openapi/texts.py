"""The texts an OpenAPI operation gives its endpoint: the description and the keywords.

Ranking reads them (an endpoint's words are its name, description and keywords):

- ``description``: the summary, then the description (HTML tags and Markdown link targets
  removed, whitespace collapsed), at most :data:`OPERATION_DESCRIPTION_CHARS` characters.
  An endpoint whose name is not its operationId starts with ``operationId <id>:`` so that
  the original stays visible (an operation without one starts with ``GET /path:``).
- ``context``: the words of its tags' descriptions (the first :data:`TAG_DESCRIPTION_CHARS`
  characters of each) that no operation of the document names itself by (operationId, tags,
  path, summary), each once: a document often says what its resources are there once, not in
  every operation (Asana's tag "Stories": '"Comments" are also a form of user-generated
  story'), while a word its operations are named by ("report") tells none apart. Planning
  reads a word of it only where the operation's own texts lack that word.
- ``keywords``: the operationId, the tags, then the literal segments of the path
  (``/repos/{owner}/{repo}/issues`` gives ``repos``, ``issues``), each once; then the
  success response's description when it is the operation's own (fewer than
  :data:`SHARED_RESPONSE` operations give it, and it has two content words or more: not
  "OK"): it says what the records are (Spotify's
  ``/markets``: "A markets object with an array of country codes"), where a description
  every operation repeats ("Successful Response", "OK") says nothing.
"""

from __future__ import annotations

import re
from typing import Any

from ..._contracts.endpoint import MAX_KEYWORD_CHARS, MAX_KEYWORDS
from ..._registry.words import text_words, word_forms
from .operations import OperationRecord, response_description

OPERATION_DESCRIPTION_CHARS = 500
TAG_DESCRIPTION_CHARS = 400
"""At most this many characters of each tag's description follow the operation's own texts."""
SHARED_RESPONSE = 3
"""A success-response description that this many operations give is no keyword of any."""
_TAG = re.compile(r"<[^<>]{0,200}>")
_LINK = re.compile(r"\[([^\[\]]{0,200})\]\([^()\s]{0,500}\)")


def operation_description(record: OperationRecord) -> str:
    """Summary and description of *record* on one line, bounded (see the module docstring)."""
    parts: list[str] = []
    if record.renamed:
        has_id = isinstance(record.operation.get("operationId"), str)
        parts.append(f"operationId {record.label}:" if has_id else f"{record.method.upper()} {record.path}:")
    summary = _plain(record.operation.get("summary"))
    description = _plain(record.operation.get("description"))
    if summary:
        parts.append(summary if summary.endswith((".", "!", "?", ":")) else summary + ".")
    if description and description != summary:
        parts.append(description)
    return _bounded(" ".join(parts), OPERATION_DESCRIPTION_CHARS)


def operation_context(record: OperationRecord) -> str:
    """The words of *record*'s tags' descriptions (see the module docstring)."""
    if record.texts is None:
        return ""
    described = record.texts.tag_descriptions
    if not any(tag in described for tag in record.tags):
        return ""
    named = record.texts.head_words
    words = (
        word
        for tag in record.tags
        if tag in described
        for word in text_words(_plain(described[tag])[:TAG_DESCRIPTION_CHARS])
        if not any(form in named for form in word_forms(word))
    )
    return " ".join(dict.fromkeys(words))


def _bounded(text: str, most: int) -> str:
    return text if len(text) <= most else text[: most - 1].rstrip() + "…"


def operation_keywords(record: OperationRecord) -> list[str]:
    """The operationId, tags and literal path segments of *record*, each once, bounded."""
    words: list[str] = []
    operation_id = record.operation.get("operationId")
    candidates = [operation_id] if isinstance(operation_id, str) else []
    candidates.extend(record.tags)
    candidates.extend(s for s in record.path.split("/") if s and not (s.startswith("{") and s.endswith("}")))
    if record.texts is not None:
        response = response_description(record.operation, record.resolver)
        if len(text_words(response)) > 1 and record.texts.response_counts.get(response, 0) < SHARED_RESPONSE:
            candidates.append(_plain(response))
    for word in candidates:
        word = " ".join(word.split())[:MAX_KEYWORD_CHARS]
        if word and word not in words:
            words.append(word)
    return words[:MAX_KEYWORDS]


def _plain(text: Any) -> str:
    if not isinstance(text, str):
        return ""
    text = _LINK.sub(r"\1", _TAG.sub(" ", text[: OPERATION_DESCRIPTION_CHARS * 8]))
    return " ".join(text.split())
