"""The texts an OpenAPI operation gives its endpoint: the description and the keywords.

Ranking reads them (an endpoint's words are its name, description and keywords):

- ``description``: the summary, then the description (HTML tags and Markdown link targets
  removed, whitespace collapsed), at most :data:`OPERATION_DESCRIPTION_CHARS` characters.
  An endpoint whose name is not its operationId starts with ``operationId <id>:`` so that
  the original stays visible (an operation without one starts with ``GET /path:``).
- ``keywords``: the operationId, the tags, then the literal segments of the path
  (``/repos/{owner}/{repo}/issues`` gives ``repos``, ``issues``), each once.
"""

from __future__ import annotations

import re
from typing import Any

from ..._contracts.endpoint import MAX_KEYWORD_CHARS, MAX_KEYWORDS
from .operations import OperationRecord

OPERATION_DESCRIPTION_CHARS = 500
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
    text = " ".join(parts)
    if len(text) <= OPERATION_DESCRIPTION_CHARS:
        return text
    return text[: OPERATION_DESCRIPTION_CHARS - 1].rstrip() + "…"


def operation_keywords(record: OperationRecord) -> list[str]:
    """The operationId, tags and literal path segments of *record*, each once, bounded."""
    words: list[str] = []
    operation_id = record.operation.get("operationId")
    candidates = [operation_id] if isinstance(operation_id, str) else []
    candidates.extend(record.tags)
    candidates.extend(s for s in record.path.split("/") if s and not (s.startswith("{") and s.endswith("}")))
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
