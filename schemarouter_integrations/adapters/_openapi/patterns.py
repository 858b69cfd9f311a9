"""Schemas of a remote document made safe to check: patterns that cannot be matched in
linear time are left to the server."""

from __future__ import annotations

from typing import Any

from ..._contracts.patterns import pattern_problem, patterns_in

__all__ = ["without_unusable_patterns"]


def without_unusable_patterns(schema: dict[str, Any]) -> dict[str, Any]:
    """*schema* without the ``pattern``s that cannot be matched in linear time (see
    ``_contracts/patterns.py``): a remote document's regex is a check the server also makes,
    so the argument is left to the server instead of refusing the whole operation."""
    if all(pattern_problem(pattern) is None for _, pattern in patterns_in(schema)):
        return schema

    def clean(node: Any) -> Any:
        if isinstance(node, dict):
            out = {k: clean(v) for k, v in node.items()}
            pattern = node.get("pattern")
            if isinstance(pattern, str) and pattern_problem(pattern) is not None:
                del out["pattern"]
            keyed = out.get("patternProperties")
            if isinstance(keyed, dict):
                kept = {k: v for k, v in keyed.items() if pattern_problem(k) is None}
                if kept:
                    out["patternProperties"] = kept
                else:
                    del out["patternProperties"]
            return out
        if isinstance(node, list):
            return [clean(item) for item in node]
        return node

    cleaned: dict[str, Any] = clean(schema)
    return cleaned
