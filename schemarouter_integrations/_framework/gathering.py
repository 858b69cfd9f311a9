"""``mode="gather"`` for the framework faces: run ``router.gather`` and show the answers side by side.

The model reads which sources answered (provider and access path), which of them sent the
first records of a longer listing only, which did not answer and why (in a few words), then,
for each needed field, the values of every provider next to each other per record identity
(the reduced formula, else the id), and the tagged records.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from .._execution import RunBudget
from .._planning import Plan, PlanRequest
from ..errors import SchemaRouterError
from ..events import GatherResult, RouterEvent, ToolResult
from .messages import with_records

__all__ = ["GathersRuns", "gather_content"]

IDENTITY_KEYS = ("chemical_formula_reduced", "formula", "material_id", "id")
"""Record keys that say which material a value belongs to, in the order they are tried."""
_REASON_CHARS = 120


class GathersRuns(Protocol):
    """Anything that gathers a request over every compatible route (a ``SchemaRouter``)."""

    def gather(
        self,
        request: PlanRequest | Plan | str,
        /,
        *,
        budget: RunBudget | None = None,
        max_routes: int | None = None,
        on_event: Callable[[RouterEvent], object] | None = None,
    ) -> Awaitable[GatherResult]: ...


def gather_content(result: GatherResult, *, max_records: int = 20, max_chars: int = 4000) -> str:
    """Compact text for the model: sources, failures, values side by side, then the records."""
    answered = ", ".join(f"{r.provider or r.tool} ({r.access_path})" for r in result.results)
    lines = [f"Gathered from {len(result.results)} source(s): {answered}."]
    cut = [
        f"{r.provider or r.tool} ({r.access_path}): first {len(r.records)} of {_held(r)} records"
        for r in result.results
        if r.truncated
    ]
    if cut:
        lines.append("Cut listings: " + "; ".join(cut) + ".")
    if result.failures:
        lines.append(
            "Not answered: "
            + "; ".join(f"{path} ({_reason(e)})" for path, e in result.failures.items())
            + "."
        )
    records = result.records
    if not records:
        lines.append("No records matched.")
        return "\n".join(lines)
    for name in _needed_fields(result):
        rows = _side_by_side(records, name)
        if rows:
            lines.append(f"{name} by provider:")
            lines.extend(f"  {key}: " + "; ".join(values) for key, values in rows.items())
    return with_records(lines, records, max_records=max_records, max_chars=max_chars)


def _held(result: ToolResult) -> str:
    """How many records the source holds: its count when it gave one, else "more"."""
    total = result.total
    return str(total) if total is not None and total > len(result.records) else "more"


def _needed_fields(result: GatherResult) -> list[str]:
    """The field names serving the plan's need (the first route's evidence), in need order."""
    calls = {call.access_path: call for call in result.plan.calls}
    names: dict[str, None] = {}
    for answer in result.results:
        call = calls.get(answer.access_path)
        for sid in result.plan.need:
            evidence = call.evidence.get(sid) if call is not None else None
            names[evidence.field if evidence is not None else sid] = None
    return list(names)


def _side_by_side(records: list[dict[str, Any]], name: str) -> dict[str, list[str]]:
    """``{"Si": ["oqmd=0.615", "gnome=0.61"]}``: each record's value of *name* by identity."""
    rows: dict[str, list[str]] = {}
    for record in records:
        if record.get(name) is None:
            continue
        key = next((str(record[k]) for k in IDENTITY_KEYS if record.get(k) is not None), "-")
        value = json.dumps(record[name], ensure_ascii=False, default=str)
        rows.setdefault(key, []).append(f"{record.get('provider') or record.get('tool')}={value}")
    return rows


def _reason(error: SchemaRouterError) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= _REASON_CHARS else text[: _REASON_CHARS - 1] + "…"
