"""The key of an answer: everything that decides it, and nothing else.

That is the access path, its contract (tool and endpoint fingerprints), the canonical
arguments, the selected fields and the server projection, and the *scope* of the invoker:
where the call goes and a one-way digest of the credentials it sends. Two applications that
share one cache with their own servers or their own keys never see each other's answers.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any

from .._contracts import canonical_json
from .._planning import ToolCall

__all__ = ["answer_key", "answer_scope", "credentials_digest", "scope_of"]


def credentials_digest(credentials: Mapping[str, str] | Iterable[tuple[str, str]]) -> str:
    """A one-way digest of the credentials a call sends (header names are case-insensitive);
    the values themselves are never kept. Empty credentials digest to ``""``."""
    items = credentials.items() if isinstance(credentials, Mapping) else credentials
    pairs = sorted((str(name).lower(), str(value)) for name, value in items)
    if not pairs:
        return ""
    material = canonical_json(["schemarouter-answer-credentials/1", pairs])
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


def answer_scope(where: str, credentials: Mapping[str, str] | Iterable[tuple[str, str]] = ()) -> str:
    """The scope of an invoker: *where* its calls go and the digest of its *credentials*."""
    digest = credentials_digest(credentials)
    return f"{where}|{digest}" if digest else where


def scope_of(invoker: Any) -> str:
    """The ``answer_scope`` an invoker declares (the built-in adapters do), else its kind."""
    scope = getattr(invoker, "answer_scope", None)
    if isinstance(scope, str):
        return scope
    kind = type(invoker)
    return f"invoker:{kind.__module__}.{kind.__qualname__}"


def answer_key(call: ToolCall, scope: str = "") -> str:
    """sha256 over the access path, its contract fingerprints, the canonical arguments, the
    selected fields, the server projection and the invoker's *scope* (origin and credentials
    digest). A contract change changes the fingerprints, so an answer to the old contract is
    never served for the new one."""
    material = canonical_json(
        [
            call.access_path,
            call.tool_fingerprint,
            call.endpoint_fingerprint,
            call.arguments_key,
            sorted(call.selected_fields),
            call.server_projection,
            scope,
        ]
    )
    return hashlib.sha256(material.encode("utf-8")).hexdigest()
