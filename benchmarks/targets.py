"""The performance targets, read from one ``make bench`` run's results.

Every row compares numbers measured side by side in that run (ratios), never an absolute
time: the machine is shared, so absolute times move with its load and ratios much less.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Row = tuple[str, str, str]
"""(target, measured, holds?)"""


def _get(results: dict[str, Any], *path: str) -> Any:
    value: Any = results
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return value


def _row(target: str, value: float | None, holds: Callable[[float], bool], shown: str) -> Row:
    if value is None:
        return (target, "not measured in this run", "-")
    return (target, shown.format(value), "yes" if holds(value) else "**no**")


def target_rows(results: dict[str, Any]) -> list[Row]:
    """One row per target, in the issue's order of value."""
    rows: list[Row] = []
    faulty = results.get("federation.ratio.faulty")
    healthy = results.get("federation.ratio.healthy")
    ours_f, peer_f = _get(results, "federation.router.gather"), _get(results, "federation.OptimadeClient.get")
    same = (
        ours_f is not None and peer_f is not None and ours_f.get("results_lost") == peer_f.get("results_lost")
    )
    detail = ""
    if ours_f and peer_f:
        detail = f" ({ours_f['seconds']:.2f} s vs {peer_f['seconds']:.2f} s, same answers: {same})"
    rows.append(
        _row("gather faster than `OptimadeClient`, faulty federation", faulty, lambda v: v > 1.0 and same,
             "OptimadeClient / ours {:.2f}x" + detail)
    )  # fmt: skip
    rows.append(
        _row("gather faster than `OptimadeClient`, healthy federation", healthy, lambda v: v > 1.0,
             "OptimadeClient / ours {:.2f}x")
    )  # fmt: skip
    rows.append(
        _row("core import <= 2x `import pydantic` + `import httpx`", results.get("imports.core_ratio"),
             lambda v: v <= 2.0, "{:.2f}x")
    )  # fmt: skip
    rows.append(
        _row("LangChain face import <= 1.5x `import langchain_core.tools`",
             results.get("imports.langchain_face_ratio"), lambda v: v <= 1.5, "{:.2f}x")
    )  # fmt: skip
    classes = results.get("imports.tool_class_ratio")
    if classes is not None:  # no target: what the tool classes cost, beside the row above
        rows.append(("(no target) `SchemaRouterTool` vs `StructuredTool`, imported", f"{classes:.2f}x", "-"))
    rows.append(
        _row("MCP server-side `call_tool` <= 1.3x a bare `mcp` tool",
             results.get("one_route.mcp_call_tool_vs_plain"), lambda v: v <= 1.3, "{:.2f}x")
    )  # fmt: skip
    rows.append(
        _row("LangChain tool <= 1.5x a bare `StructuredTool` over the same function",
             results.get("one_route.langchain_vs_plain"), lambda v: v <= 1.5, "{:.2f}x")
    )  # fmt: skip
    rows.append(
        _row("LlamaIndex tool <= 2.0x a bare `FunctionTool` over the same function",
             results.get("one_route.llamaindex_vs_plain"), lambda v: v <= 2.0, "{:.2f}x")
    )  # fmt: skip
    rows.append(
        _row("LangChain face alone <= 1.1x (bare tool calling `router.invoke`)",
             results.get("one_route.langchain_face"), lambda v: v <= 1.1, "{:.2f}x")
    )  # fmt: skip
    rows.append(
        _row("LlamaIndex face alone <= 1.1x (bare tool calling `router.invoke`)",
             results.get("one_route.llamaindex_face"), lambda v: v <= 1.1, "{:.2f}x")
    )  # fmt: skip
    chain = _get(results, "anchor", "invoke", "compiled plan")
    rows.append(
        _row("4-route chain invoke >= 150x the anchor (compiled plan, CPU ratio)",
             chain.get("cpu_ratio") if isinstance(chain, dict) else None, lambda v: v >= 150, "{:.0f}x")
    )  # fmt: skip
    kb, peer_kb = results.get("memory.ours_kb_per_route"), results.get("memory.structured_tool_kb_per_route")
    routes = results.get("memory.routes")
    at = f" at {int(routes):,} routes" if routes else ""
    beside = f" (`StructuredTool` {peer_kb:.1f} KB)" if peer_kb is not None else ""
    rows.append(
        _row("<= 13 KB per callable route at 100,000 routes", kb, lambda v: v <= 13.0 and routes == 100_000,
             "{:.1f} KB" + at + beside)
    )  # fmt: skip
    memory = _get(results, "anchor", "memory")
    row = next(iter(memory.values()), None) if isinstance(memory, dict) else None
    peak = None
    if isinstance(row, dict) and row.get("ours_peak_mb"):
        peak = row["anchor_peak_mb"] / row["ours_peak_mb"]
    lighter = ">= 3x lighter than the anchor at 1,000 tools (peak)"
    rows.append(_row(lighter, peak, lambda v: v >= 3.0, "{:.2f}x"))
    yaml_register = results.get("registration github.yaml s")
    yaml_parse = results.get("registration github.yaml: CSafeLoader alone s")
    ratio = yaml_register / yaml_parse if yaml_register and yaml_parse else None
    rows.append(
        _row("GitHub's YAML document: register <= 1.2x libyaml `CSafeLoader` parse", ratio,
             lambda v: v <= 1.2, "{:.2f}x")
    )  # fmt: skip
    seconds = results.get("bench.seconds")
    rows.append(_row("`make bench` under 15 minutes", seconds, lambda v: v < 900, "{:.0f} s"))
    return rows


def targets_section(results: dict[str, Any]) -> list[str]:
    """The Markdown table of every target of this run."""
    lines = [
        "## Performance targets",
        "",
        "Each row is a ratio measured side by side in this run (the machine is shared with other "
        "work, so absolute times vary with its load; the ratios are what is compared).",
        "",
        "| target | measured | holds? |",
        "|---|---|---|",
    ]
    lines += [f"| {target} | {measured} | {holds} |" for target, measured, holds in target_rows(results)]
    return lines
