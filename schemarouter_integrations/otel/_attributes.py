"""Span attribute names and values: GenAI and OpenInference conventions, ``error.type``."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from opentelemetry.util.types import AttributeValue

from .._framework import route_summary
from ..events import ToolResult

DEFAULT_TOOL_NAME = "schemarouter"
"""``gen_ai.tool.name`` of runs that no framework tool started (``router.invoke`` directly)."""

OPERATION = "gen_ai.operation.name"
TOOL_NAME = "gen_ai.tool.name"
TOOL_CALL_ID = "gen_ai.tool.call.id"
TOOL_TYPE = "gen_ai.tool.type"
ERROR_TYPE = "error.type"
OI_KIND = "openinference.span.kind"
OI_TOOL_NAME = "tool.name"
INPUT_VALUE = "input.value"
INPUT_MIME = "input.mime_type"
OUTPUT_VALUE = "output.value"
OUTPUT_MIME = "output.mime_type"
METADATA = "metadata"

MAX_OUTPUT_CHARS = 2000
"""``output.value`` of a run span stays under this many characters (records are dropped first)."""

_STATUS = re.compile(r"\banswered (\d{3})\b|\bHTTP (\d{3})\b")
_CLASS_TYPES = {
    "InvocationUnavailableError": "unavailable",
    "AllRoutesUnavailableError": "all_routes_unavailable",
    "NonRetryableInvocationError": "non_retryable",
    "InvokerCrashedError": "invoker_crashed",
    "SchemaValidationError": "schema_validation",
    "BudgetExceededError": "budget_exceeded",
    "NoRouteError": "no_route",
    "LocalCapacityError": "local_capacity",
    "PolicyViolationError": "policy_violation",
    "StaleFingerprintError": "stale_fingerprint",
}


def error_type(exception_type: str, message: str = "", status_code: int | None = None) -> str:
    """A low-cardinality ``error.type`` for a failed attempt or run.

    An HTTP status gives ``http.<status>`` (from *status_code* or the router's message,
    "... answered 503 ..."); a timeout ``timeout``; a refused connection ``connect``; other
    transport failures ``transport``; else a short name of the router error class
    (``unavailable``, ``budget_exceeded``, ...), or the class name itself.
    """
    if status_code is None:
        match = _STATUS.search(message)
        if match:
            status_code = int(match.group(1) or match.group(2))
    if status_code is not None:
        return f"http.{status_code}"
    lowered = message.lower()
    if "timed out" in lowered or "timeout" in lowered:
        return "timeout"
    if "connect" in lowered:
        return "connect"
    if "transport failure" in lowered:
        return "transport"
    return _CLASS_TYPES.get(exception_type, exception_type or "error")


def attributes(values: Mapping[str, Any]) -> dict[str, AttributeValue]:
    """*values* as OpenTelemetry attributes: ``None`` dropped, lists of scalars kept, the rest JSON."""
    out: dict[str, AttributeValue] = {}
    for key, value in values.items():
        if value is None:
            continue
        if isinstance(value, str | bool | int | float):
            out[key] = value
        elif isinstance(value, Sequence) and all(isinstance(v, str) for v in value):
            out[key] = list(value)
        else:
            out[key] = compact_json(value)
    return out


def compact_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)


def result_output(result: ToolResult, limit: int = MAX_OUTPUT_CHARS) -> str:
    """``output.value`` of a run: its records (as many as fit in *limit*) and the route summary."""
    route = route_summary(result)
    shown: list[dict[str, Any]] = []
    used = len(compact_json({"records": [], "route": route}))
    for record in result.records:
        size = len(compact_json(record)) + 1
        if used + size > limit:
            break
        shown.append(record)
        used += size
    return compact_json({"records": shown, "route": route})
