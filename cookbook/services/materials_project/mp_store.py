"""The async collection emmet-api reads, over a mongomock collection (run in the MP venv).

emmet-api awaits *pymongo async* collections; :class:`AsyncCollection` gives it the few
methods it calls over mongomock. Two aggregation features MongoDB Atlas has and mongomock
lacks are answered here, so that the resources using them serve their documents:

* ``$search`` (Atlas Search: synthesis keywords, robocrystallographer text search) is
  answered in Python: a document matches when its searched text contains any of the
  keywords (case-insensitive; a ``regex`` search uses them as regular expressions), its score
  is the number of keywords found, and ``$meta`` / ``$$SEARCH_META`` read that score and the
  match count;
* ``$replaceRoot`` over ``$mergeObjects: ["$a", {k: expr, ...}]`` becomes ``$addFields``
  of ``a.k`` then ``$replaceRoot`` to ``$a``, which means the same.
"""

from __future__ import annotations

import re
from typing import Any

import mongomock

_SERVER_ONLY = ("maxTimeMS", "max_time_ms", "hint", "comment", "allowDiskUse")
SCORE = "_search_score"
HIGHLIGHTS = "_search_highlights"


def _local(kwargs: dict[str, Any]) -> dict[str, Any]:
    """Options mongomock does not know (server-side time limits, index hints) dropped."""
    return {k: v for k, v in kwargs.items() if k not in _SERVER_ONLY}


class AsyncCursor:
    """The result of ``aggregate``: what emmet-api reads with ``await cursor.to_list()``."""

    def __init__(self, documents: list[dict[str, Any]]) -> None:
        self._documents = documents

    async def to_list(self, length: int | None = None) -> list[dict[str, Any]]:
        return self._documents if length is None else self._documents[:length]


def _search(documents: list[dict[str, Any]], stage: dict[str, Any]) -> list[dict[str, Any]]:
    """The documents an Atlas ``$search`` stage matches, best first, with score and highlights."""
    operator = stage.get("search") or stage.get("text") or stage.get("regex") or {}
    words = operator.get("query", [])
    words = [words] if isinstance(words, str) else list(words)
    path = operator.get("path", "")
    regex = "regex" in stage
    found = []
    for document in documents:
        text = str(document.get(path) or "")
        hits = [w for w in words if (re.search(w, text, re.I) if regex else w.lower() in text.lower())]
        if hits:
            highlights = [{"path": path, "texts": [{"value": w, "type": "hit"}], "score": 1.0} for w in hits]
            found.append({**document, SCORE: float(len(hits)), HIGHLIGHTS: highlights})
    found.sort(key=lambda d: (-d[SCORE], str(d.get("material_id", ""))))
    return found


def _rewrite(value: Any, total: int) -> Any:
    """``$meta`` and ``$$SEARCH_META`` references replaced by the fields :func:`_search` set."""
    if isinstance(value, dict):
        if value.get("$meta") == "searchScore":
            return f"${SCORE}"
        if value.get("$meta") == "searchHighlights":
            return f"${HIGHLIGHTS}"
        return {k: _rewrite(v, total) for k, v in value.items()}
    if value == "$$SEARCH_META":
        return {"$literal": {"count": {"total": total}}}
    if isinstance(value, list):
        return [_rewrite(v, total) for v in value]
    return value


def _merge_stages(stage: dict[str, Any]) -> list[dict[str, Any]] | None:
    """``$replaceRoot: {newRoot: {$mergeObjects: ["$a", {...}]}}`` as stages mongomock runs."""
    root = stage.get("$replaceRoot", {}).get("newRoot")
    merged = root.get("$mergeObjects") if isinstance(root, dict) else None
    if not merged or not isinstance(merged[0], str) or not all(isinstance(p, dict) for p in merged[1:]):
        return None
    base = merged[0].removeprefix("$")
    added = {f"{base}.{key}": value for part in merged[1:] for key, value in part.items()}
    return [{"$addFields": added}, {"$replaceRoot": {"newRoot": merged[0]}}]


def run_pipeline(collection: Any, pipeline: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """*pipeline* on a mongomock *collection*, with ``$search`` and ``$mergeObjects`` answered."""
    stages: list[dict[str, Any]] = []
    for stage in pipeline:
        stages.extend(_merge_stages(stage) or [stage])
    if not stages or "$search" not in stages[0]:
        return list(collection.aggregate(stages))
    found = _search(list(collection.find({})), stages[0]["$search"])
    scratch = mongomock.MongoClient()["search"]["found"]
    scratch.drop()
    if found:
        scratch.insert_many(found)
    try:
        return list(scratch.aggregate(_rewrite(stages[1:], len(found))))
    finally:
        scratch.drop()


class AsyncCollection:
    """The few ``pymongo.asynchronous.collection.AsyncCollection`` methods emmet-api awaits."""

    def __init__(self, collection: Any) -> None:
        self._collection = collection
        self.name = collection.name

    async def find_one(self, filter: Any = None, *args: Any, **kwargs: Any) -> Any:
        return self._collection.find_one(filter, *args, **_local(kwargs))

    async def count_documents(self, filter: Any, **kwargs: Any) -> int:
        return int(self._collection.count_documents(filter, **_local(kwargs)))

    async def estimated_document_count(self, **kwargs: Any) -> int:
        return int(self._collection.estimated_document_count())

    async def aggregate(self, pipeline: list[dict[str, Any]], **kwargs: Any) -> AsyncCursor:
        return AsyncCursor(run_pipeline(self._collection, pipeline))

    async def distinct(self, key: str, filter: Any = None, **kwargs: Any) -> list[Any]:
        return list(self._collection.distinct(key, filter))

    async def update_one(self, filter: Any, update: Any, **kwargs: Any) -> Any:
        return self._collection.update_one(filter, update, **_local(kwargs))

    async def insert_many(self, documents: list[dict[str, Any]], **kwargs: Any) -> Any:
        return self._collection.insert_many(documents)
