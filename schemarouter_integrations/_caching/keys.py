"""The key of an answer: everything that decides it, and nothing else."""

from __future__ import annotations

import hashlib

from .._contracts import canonical_json
from .._planning import ToolCall


def answer_key(call: ToolCall) -> str:
    """sha256 over the access path, its endpoint fingerprint, the canonical arguments, the
    selected fields and the server projection. A contract change changes the fingerprint,
    so an answer to the old contract is never served for the new one."""
    material = canonical_json(
        [
            call.access_path,
            call.endpoint_fingerprint,
            call.arguments_key,
            sorted(call.selected_fields),
            call.server_projection,
        ]
    )
    return hashlib.sha256(material.encode("utf-8")).hexdigest()
