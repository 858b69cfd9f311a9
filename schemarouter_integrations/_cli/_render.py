"""What the CLI prints: rich tables on a terminal, the same tables as plain text when piped,
and JSON documents for ``--json``. Nothing here prints a header value or any other secret."""

from __future__ import annotations

import copy
import json
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from rich.console import Console
from rich.table import Table

from .._planning import Plan
from .._planning.models import ToolCall
from ..config import RouterConfig
from ..events import RouterEvent, ToolResult

__all__ = [
    "event_line",
    "iso_utc",
    "now_utc",
    "plan_data",
    "plan_tables",
    "print_json",
    "records_table",
    "result_data",
    "routes_table",
    "show",
]


def print_json(document: Any) -> None:
    """One JSON document on stdout (never wrapped or coloured)."""
    sys.stdout.write(json.dumps(document, indent=2, sort_keys=True, default=str) + "\n")
    sys.stdout.flush()


def routes_table(config: RouterConfig, *, mask: Callable[[str], str] = str) -> Table:
    """The routes of *config*, one a row; *mask* hides secrets in what the file wrote."""
    table = Table(title=f"Routes of {config.source or 'the configuration'}")
    for column in ("route", "kind", "provider", "access mode", "where", "probe", "headers"):
        table.add_column(column)
    for name, route in config.routes.items():
        data = route.model_dump(mode="json")
        target = data.get("target")
        target = " ".join(target) if isinstance(target, list) else target
        where = (
            data.get("url") or data.get("function") or target or str(data.get("source") or "providers list")
        )
        headers = ", ".join(sorted(getattr(route, "headers", {}))) or "-"
        cells = (
            name,
            route.kind,
            str(data.get("provider") or "-"),
            str(data.get("access_mode") or route.kind),
            str(where),
            str(data.get("probe") or "-"),
            headers,
        )
        table.add_row(*(mask(cell) for cell in cells))  # any cell may hold a value from the environment
    return table


def _call_row(role: str, call: ToolCall) -> tuple[str, ...]:
    projection = ", ".join(f"{k}={v}" for k, v in call.server_projection.items()) or "-"
    return (role, call.access_path, call.provider or "-", call.access_mode or "-", call.scope, projection)


def plan_tables(plan: Plan) -> list[Table]:
    """The chain (primary, then fallbacks) and the rejected candidates with their reasons."""
    missing = f", missing {plan.missing}" if plan.missing else ""
    chain = Table(title=f"Plan for {plan.request.query!r}: need {plan.need or 'every field'}{missing}")
    for column in ("role", "access path", "provider", "access mode", "scope", "server projection"):
        chain.add_column(column)
    if plan.primary is not None:
        chain.add_row(*_call_row("primary", plan.primary))
    for number, call in enumerate(plan.fallbacks, start=1):
        chain.add_row(*_call_row(f"fallback {number}", call))
    rejected = Table(title="Rejected candidates")
    rejected.add_column("access path")
    rejected.add_column("reason")
    for rejection in plan.rejected:
        rejected.add_row(rejection.access_path, rejection.reason)
    return [chain, rejected]


def plan_data(plan: Plan) -> dict[str, Any]:
    return {
        "query": plan.request.query,
        "need": plan.need,
        "missing": plan.missing,
        "unmatched": plan.unmatched,
        "primary": plan.primary.model_dump(mode="json") if plan.primary else None,
        "fallbacks": [call.model_dump(mode="json") for call in plan.fallbacks],
        "rejected": [r.model_dump(mode="json") for r in plan.rejected],
    }


def records_table(records: list[dict[str, Any]], title: str) -> Table:
    columns: list[str] = []
    for record in records:
        columns += [key for key in record if key not in columns]
    table = Table(title=title)
    for column in columns:
        table.add_column(column)
    for record in records:
        table.add_row(*(_cell(record.get(column)) for column in columns))
    return table


def _cell(value: Any) -> str:
    return "-" if value is None else value if isinstance(value, str) else json.dumps(value)


def result_data(result: ToolResult) -> dict[str, Any]:
    fallbacks = [e.payload() for e in result.events if e.type == "tool.fallback"]
    return {
        "ok": True,
        "tool": result.tool,
        "endpoint": result.endpoint,
        "provider": result.provider,
        "access_mode": result.access_mode,
        "records": result.records,
        "route": result.route,
        "attempts": len(result.attempts),
        "fallbacks": fallbacks,
        "cached": result.cached,
        "stale": result.stale,
        "age_seconds": result.age_seconds,
    }


def event_line(event: RouterEvent) -> str | None:
    """One line per event worth showing while a run goes on (None: not shown)."""
    data = event.payload()
    if event.type == "tool.fallback":
        return (
            f"tool.fallback  {data['from_tool']}.{data['from_endpoint']} -> "
            f"{data['to_tool']}.{data['to_endpoint']}  scope={data['scope']} reason={data['reason']}"
        )
    if event.type in {"tool.start", "tool.end", "tool.retry"}:
        return f"{event.type:<14} {data['tool']}.{data['endpoint']}"
    if event.type == "tool.error":
        return f"tool.error     {data['tool']}.{data['endpoint']}  {data['error_type']}: {data['error'][:80]}"
    if event.type == "route.unavailable":
        return (
            f"route.unavailable {data['tool']}.{data['endpoint']}  cooldown {data['cooldown_seconds']:.0f}s"
        )
    return None


def console(*, stderr: bool = False) -> Console:
    """Rich output on a terminal; plain text (no colour, no live progress) when piped."""
    if Console(stderr=stderr).is_terminal:
        return Console(stderr=stderr, highlight=False, soft_wrap=False)
    # Lines are never wrapped (a message stays one line for grep); tables fit 160 columns.
    plain = {"width": 160, "no_color": True, "color_system": None}
    return Console(stderr=stderr, highlight=False, soft_wrap=True, **plain)  # type: ignore[arg-type]


def show(where: Console, table: Table) -> None:
    """*table* with its box on a terminal; as plain aligned columns (no box, no colour) otherwise,
    its title a line of its own."""
    if where.is_terminal:
        where.print(table)
        return
    plain = copy.copy(table)
    plain.box, plain.show_edge, plain.pad_edge, plain.title = None, False, False, None
    plain.header_style = plain.title_style = ""
    if table.title:
        where.print(f"{table.title}:", markup=False)
    where.print(plain)


def iso_utc(monotonic_seconds: float | None) -> str | None:
    """A reading of the monotonic clock as an ISO 8601 UTC wall-clock time (None stays None)."""
    if monotonic_seconds is None:
        return None
    wall = time.time() - (time.monotonic() - monotonic_seconds)
    return datetime.fromtimestamp(wall, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def now_utc() -> str:
    """The wall-clock time now, ISO 8601 UTC."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
