"""RestBench's published OpenAPI documents (TMDB, Spotify), vendored under ``tests/data/restbench``
byte for byte (see its README for the source and licence)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

RESTBENCH = Path(__file__).resolve().parents[1] / "data" / "restbench"


def restbench_document(name: str) -> dict[str, Any]:
    """``"tmdb"`` or ``"spotify"``: the document as its publisher wrote it."""
    data: dict[str, Any] = json.loads(gzip.decompress((RESTBENCH / f"{name}_oas.json.gz").read_bytes()))
    return data


def operation_labels(document: dict[str, Any]) -> list[str]:
    """Every operation's operationId (or ``"<method> <path>"``), in document order."""
    out = []
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method in ("get", "put", "post", "delete", "patch", "head", "options", "trace"):
                out.append(operation.get("operationId") or f"{method} {path}")
    return out
