"""The report's section on registering real documents beside the peers (peer_registration_bench)."""

from __future__ import annotations

from typing import Any

DOCUMENTS = ("spotify", "stripe", "github")
WHO = ("schemarouter", "fastmcp", "langchain")


def peer_registration_section(results: dict[str, Any]) -> list[str]:
    """One row per document and tool: wall and CPU seconds, or why the tool refuses it."""
    if not any(k.startswith("peer_registration ") for k in results):
        return []
    lines = ["", "## Registration of real documents beside FastMCP and LangChain", ""]
    lines += ["| document | tool | wall (s) | CPU (s) | ours faster (CPU) |", "|---|---|---|---|---|"]
    for document in DOCUMENTS:
        for who in WHO:
            prefix = f"peer_registration {document} {who}"
            refused = results.get(f"{prefix} refused")
            if refused is not None:
                lines.append(f"| {document} | {who} | refuses it: {refused} | | |")
                continue
            wall, cpu = results.get(f"{prefix} s"), results.get(f"{prefix} cpu_s")
            if wall is None or cpu is None:
                continue
            speedup = results.get(f"peer_registration {document} speedup_vs_fastmcp")
            cell = f"{speedup:.2f}x (target >= 1.5x)" if speedup is not None and who == "fastmcp" else ""
            lines.append(f"| {document} | {who} | {wall:.3f} | {cpu:.3f} | {cell} |")
    return lines


def registration_and_plan_rows(results: dict[str, Any]) -> list[tuple[str, float | None, Any, str, str]]:
    """``(target, value, holds, shown, profile key)`` of issue 42's registration-against-peers
    and question-reader planning targets (``targets._row`` makes each a row)."""
    rows: list[tuple[str, float | None, Any, str, str]] = []
    for document in DOCUMENTS:
        speedup = results.get(f"peer_registration {document} speedup_vs_fastmcp")
        refused = results.get(f"peer_registration {document} fastmcp refused")
        target = f"register {document}'s document >= 1.5x faster than `FastMCP.from_openapi` (CPU)"
        if refused is not None:
            target += f"; FastMCP refuses it ({str(refused)[:80]})"
        rows.append((target, speedup, lambda v: v >= 1.5, "{:.2f}x", "peers"))
    cold = results.get("plan_cold_median_ms_1000")
    rows.append(("cold plan of 1,000 tools <= 2 ms", cold, lambda v: v <= 2.0, "{:.3f} ms", "plan"))
    warm10, warm10k = results.get("plan_median_ms_10"), results.get("plan_median_ms_10000")
    flat = warm10k / warm10 if warm10 and warm10k else None
    flat_target = "warm plan flat from 10 to 10,000 tools (10,000 / 10 <= 1.5x)"
    rows.append((flat_target, flat, lambda v: v <= 1.5, "{:.2f}x", "plan"))
    ratios = [
        results[f"plan{kind}_median_ms_{size}"] / results[f"plan_before{kind}_median_ms_{size}"]
        for size in (10, 100, 1000, 10000)
        for kind in ("", "_cold")
        if results.get(f"plan{kind}_median_ms_{size}") and results.get(f"plan_before{kind}_median_ms_{size}")
    ]
    worst = max(ratios) if ratios else None
    rows.append(("no planning row > 10% slower than before the question reader (worst now / before)",
                 worst, lambda v: v <= 1.10, "{:.2f}x", "plan"))  # fmt: skip
    return rows
