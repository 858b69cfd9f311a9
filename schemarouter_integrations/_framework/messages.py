"""What the model reads after a call: the records of a result, or an error it can act on."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from .._contracts.fingerprint import fast_encoding
from .._execution.context import events_of
from ..errors import (
    AllRoutesUnavailableError,
    BudgetExceededError,
    InvokerCrashedError,
    NonRetryableInvocationError,
    NoRouteError,
    SchemaValidationError,
)
from ..events import ToolFallbackEvent, ToolHedgeEvent, ToolResult

if TYPE_CHECKING:
    from .._planning import Plan, ToolCall

__all__ = [
    "MODEL_ERRORS",
    "MODEL_FIXABLE_STATUSES",
    "cache_line",
    "model_error_message",
    "result_content",
    "validation_message",
]

MODEL_ERRORS: tuple[type[Exception], ...] = (
    NoRouteError,
    AllRoutesUnavailableError,
    BudgetExceededError,
    SchemaValidationError,
    NonRetryableInvocationError,
)
"""Router errors the model can act on; every other error propagates to the application.

A ``NonRetryableInvocationError`` reaches the model only with a status in
:data:`MODEL_FIXABLE_STATUSES` (a request the model can change: unknown id, bad value);
authentication failures, malformed responses and invoker bugs (``InvokerCrashedError``) are
the application's to handle.

``InvokerCrashedError`` (an invoker's bug) is a ``NonRetryableInvocationError`` but is never
shown to the model: :func:`model_error_message` returns ``None`` for it."""

MODEL_FIXABLE_STATUSES = frozenset({400, 404, 409, 410, 422})
"""HTTP statuses of refusals that another request from the model can avoid."""


def cache_line(result: ToolResult) -> str | None:
    """What the model reads about an answer from the cache: fresh and how old, or stale."""
    if not result.cached:
        return None
    age = _age(result.age_seconds or 0.0)
    if result.stale:
        return (
            f"Every data source is unavailable right now: this is a stale answer from the cache, "
            f"{age} old. It may be out of date."
        )
    return f"From the answer cache ({age} old)."


def _age(seconds: float) -> str:
    if seconds < 1:
        return "less than a second"
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def result_content(result: ToolResult, *, max_records: int = 20, max_chars: int = 4000) -> str:
    """Compact text for the model: the route that answered, fallbacks taken, the records, then
    what the answer lacks.

    The records lead ("Records (3):", or "Records (first 200 of 1432):" when the answer was
    cut, see ``ToolResult.truncated``), or "No records matched.". After them: a partial answer
    (``Plan.missing``: no data source serves the whole need) names what is missing
    ("Partial answer: no data source serves all of the request; missing: density."); words of
    the query that matched no field (``Plan.unmatched``) are named with the fields returned
    instead ("No data source exposes 'milestones'. Returned instead: ..."). A
    needed field that the source did not return (absent
    from every record) is named once ("The source did not return: band_gap."), never shown as
    a value; a field the source returned as null in every record is named once too ("No record
    has a value for: band_gap.") instead of printed as nulls.
    """
    plan = result.plan
    source, mode = result.provider, result.access_mode
    provider = f"{source}, {mode}" if source and mode else source or mode or ""
    path = result.access_path
    call = _answering_call(plan, path)
    records = result.records
    lines = [f"Answered by {path}" + (f" ({provider})." if provider else ".")]
    served = cache_line(result) if result.cached else None
    if served:
        lines.append(served)
    fallbacks = events_of(result, ToolFallbackEvent)  # builds no other event of a quiet run
    if fallbacks:
        steps = "; ".join(
            f"{e.from_tool}.{e.from_endpoint} -> {e.to_tool}.{e.to_endpoint} ({e.reason})" for e in fallbacks
        )
        lines.append(f"Fallbacks taken: {len(fallbacks)} ({steps}).")
    hedges = events_of(result, ToolHedgeEvent)
    if hedges:
        steps = "; ".join(
            f"{e.to_tool}.{e.to_endpoint} started after {e.from_tool}.{e.from_endpoint} "
            f"gave no answer in {e.after_seconds:g} s"
            for e in hedges
        )
        lines.append(f"Hedged: {steps}.")
    notes = [_missing_line(plan.missing)] if plan.missing else []
    notes.extend(_unmatched_lines(plan, call, records) if plan.unmatched else [])
    if not records:
        return "\n".join([*lines, "No records matched.", *notes])
    absent = _not_returned(call, records)
    if absent:
        notes.append(f"The source did not return: {', '.join(absent)}.")
    empty = _valueless(records)
    if empty:
        notes.append(f"No record has a value for: {', '.join(empty)}.")
        records = [{k: v for k, v in record.items() if k not in empty} for record in records]
    if not any(records):
        return "\n".join([*lines, f"Records ({len(records)}), none with a value.", *notes])
    text = with_records(lines, records, max_records=max_records, max_chars=max_chars, of=_of(result))
    return "\n".join([text, *notes])


def _of(result: ToolResult) -> str | None:
    """How many records the source holds, when the answer was cut ("1432", "more"), else None."""
    if not result.truncated:
        return None
    return str(result.total) if result.total is not None and result.total > len(result.records) else "more"


_RECORD = json.JSONEncoder(ensure_ascii=False, sort_keys=True, default=str)
"""One record as a JSON line: ``json.dumps(record, ensure_ascii=False, sort_keys=True,
default=str)`` without building this encoder on every call."""


_record_line: Callable[[dict[str, Any]], str] = fast_encoding(_RECORD)
"""*record* as ``json.dumps(record, ensure_ascii=False, sort_keys=True, default=str)``."""


def with_records(
    lines: list[str],
    records: list[dict[str, Any]],
    *,
    max_records: int,
    max_chars: int,
    of: str | None = None,
) -> str:
    """*lines* followed by the records as JSON lines, at most *max_records* of them and no
    more than *max_chars* in all (the first record always), and how many were left out.
    *of*: the answer was cut, the source holding that many ("Records (first 200 of 1432):")."""
    count = f"first {len(records)} of {of}" if of is not None else str(len(records))
    if len(records) == 1 and max_records > 0:  # the first record is always shown
        return "\n".join([*lines, f"Records ({count}):", _record_line(records[0])])
    lines = [*lines, f"Records ({count}):"]
    used = sum(map(len, lines)) + len(lines)
    shown = 0
    for record in records[:max_records]:
        line = _record_line(record)
        if shown and used + len(line) + 1 > max_chars:
            break
        lines.append(line)
        used += len(line) + 1
        shown += 1
    if shown < len(records):
        lines.append(f"... {len(records) - shown} more record(s) not shown.")
    return "\n".join(lines)


def _answering_call(plan: Plan, path: str) -> ToolCall | None:
    """The call of *plan* on access path *path* (the primary, nearly always)."""
    primary = plan.primary
    if primary is not None and primary.access_path == path:
        return primary
    return next((c for c in plan.fallbacks if c.access_path == path), None)


def _unmatched_lines(plan: Plan, call: ToolCall | None, records: list[dict[str, Any]]) -> list[str]:
    """The statement about unmatched words, with the fields that were returned instead."""
    phrases = plan.unmatched_phrases()
    if not phrases:
        return []
    returned = list(call.selected_fields) if call is not None and call.selected_fields else []
    if not returned:
        returned = sorted({key for record in records for key in record})
    named = ", ".join(f"'{p}'" for p in phrases)
    instead = f" Returned instead: {', '.join(returned)}." if returned else ""
    return [f"No data source exposes {named}.{instead}"]


def _missing_line(missing: list[str]) -> str:
    """What a partial answer leaves out, for the model."""
    return (
        f"Partial answer: no data source serves all of the request; missing: {', '.join(missing)}. "
        "These records do not answer about them."
    )


def _not_returned(call: ToolCall | None, records: list[dict[str, Any]]) -> list[str]:
    """The needed fields of the answering call that no record carries: the source did not
    return them (a field it returned as null is in the record, as ``None``)."""
    if call is None or not call.evidence:
        return []
    needed = dict.fromkeys(evidence.field for evidence in call.evidence.values())
    if len(records) == 1:
        record = records[0]
        return [name for name in needed if name not in record and not _carries(record, name)]
    return [name for name in needed if not any(_carries(record, name) for record in records)]


def _carries(record: dict[str, Any], name: str, depth: int = 0) -> bool:
    """True when *record* holds *name* at its top level, or nested (a field written at its
    ``result_path``, ``{"props": {"band_gap": 1.1}}``), or a dotted *name* along its parts
    (``symmetry.symbol`` inside the ``symmetry`` object returned whole)."""
    if name in record:
        return True
    if depth == 0 and "." in name and _along(record, name.split(".")):
        return True
    return depth < 4 and any(isinstance(v, dict) and _carries(v, name, depth + 1) for v in record.values())


def _along(record: dict[str, Any], parts: list[str]) -> bool:
    node: Any = record
    for part in parts:
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return True


def _valueless(records: list[dict[str, Any]]) -> list[str]:
    """Top-level keys that are ``None`` in every record, in first-seen order."""
    if len(records) == 1:
        return [key for key, value in records[0].items() if value is None]
    keys = dict.fromkeys(key for record in records for key in record)
    return [key for key in keys if all(record.get(key) is None for record in records)]


def model_error_message(exc: BaseException, *, max_chars: int = 800) -> str | None:
    """A message the model can act on for the errors in :data:`MODEL_ERRORS`, else ``None``.

    The text names access paths and reasons only: no stack trace, no header or credential.
    """
    if isinstance(exc, AllRoutesUnavailableError):
        tried = list(dict.fromkeys(a.access_path for a in exc.attempts))
        text = (
            "Every data source that could answer was unavailable"
            + (f" (tried: {', '.join(tried)})" if tried else "")
            + ". Try again later or answer without this data."
        )
    elif isinstance(exc, NoRouteError) and exc.unmatched:
        named = ", ".join(f"'{p}'" for p in exc.unmatched)
        can = f" The sources can answer: {', '.join(exc.answerable)}." if exc.answerable else ""
        text = (
            f"No data source exposes {named}, so there is no answer about it.{can} "
            "Ask for one of those fields, or answer without this data."
        )
    elif isinstance(exc, NoRouteError):
        hint = "Name a supported property in `query`, and drop or fix arguments the sources reject."
        if exc.cooling_down:
            wait = exc.reopens_in_seconds
            reopen = f" (the first reopens in about {wait:.0f}s)" if wait is not None else ""
            hint = f"Sources in cooldown are temporarily unavailable{reopen}: retry later. " + hint
        text = f"No data source can answer this request right now: {exc}. {hint}"
    elif isinstance(exc, BudgetExceededError):
        text = f"The lookup stopped because its budget is used up ({exc}). Do not retry it."
    elif isinstance(exc, SchemaValidationError):
        details = "; ".join(exc.errors) if exc.errors else str(exc)
        advice = (
            "The data source answered outside its declared schema, so retrying will not help; "
            "answer without this data."
            if exc.subject == "response"
            else "Fix the arguments and retry."
        )
        text = f"The request was rejected by a schema check: {details}. {advice}"
    elif (
        isinstance(exc, NonRetryableInvocationError)
        and not isinstance(exc, InvokerCrashedError)
        and exc.status_code in MODEL_FIXABLE_STATUSES
    ):
        text = (
            f"The data source refused the request (HTTP {exc.status_code}): {exc}. "
            "Check the arguments (for example an identifier that does not exist); "
            "retrying unchanged will fail again."
        )
    else:
        return None
    return text if len(text) <= max_chars else text[: max_chars - 3] + "..."


def validation_message(error: ValidationError | object, *, max_errors: int = 5) -> str:
    """A short, model-readable account of invalid tool arguments (no stack trace, no input echo)."""
    if not isinstance(error, ValidationError):
        return "The tool arguments are invalid. Fix them and call the tool again."
    problems = []
    for item in error.errors(include_url=False, include_input=False)[:max_errors]:
        where = ".".join(str(part) for part in item["loc"]) or "arguments"
        problems.append(f"{where}: {item['msg'].removeprefix('Value error, ')}")
    return "Invalid tool arguments: " + "; ".join(problems) + ". Fix them and call the tool again."
