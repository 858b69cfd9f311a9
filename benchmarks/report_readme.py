"""The README's benchmark lines, written from one ``make bench`` run's results.

Two places of ``README.md`` come from the run, never by hand:

- the outage table, between ``<!-- bench:outage-table -->`` and ``<!-- /bench:outage-table -->``
  (from ``outage_timeline_bench``; its plot, ``benchmarks/outage_timeline.png``, is written by
  ``report_outage``);
- the ``make bench`` row of the development table: how long the whole run took
  (``bench.seconds``; only a whole run says that, ``--only`` runs leave the row alone).

A run without the outage benchmark leaves the table as it is; the markers must be there.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

README = Path(__file__).resolve().parent.parent / "README.md"
START, END = "<!-- bench:outage-table -->", "<!-- /bench:outage-table -->"
BENCH_ROW = re.compile(r"^\| `make bench` \|.*\|$", re.MULTILINE)
LABELS = {
    "ours": "SchemaRouter",
    "ours_hedged": "SchemaRouter with `HedgePolicy({after:g})`",
    "with_fallbacks": "LangChain `with_fallbacks`",
}


def outage_table(results: dict[str, Any]) -> list[str] | None:
    """The README's outage table (None when the run has no outage timeline)."""
    outcome = results.get("outage_timeline")
    if not isinstance(outcome, dict) or "ours" not in outcome.get("variants", {}):
        return None
    variants: dict[str, Any] = outcome["variants"]
    ours_total = variants["ours"]["total_s"]
    questions = len(variants["ours"].get("per_question_ms", [])) or 100
    lines = [f"| | total for {questions} questions | question 1 | failed waits |", "|---|---|---|---|"]
    for name, row in variants.items():
        label = LABELS.get(name, name).format(after=outcome.get("hedge_after_s", 0.05))
        total = f"{row['total_s']:.2f} s" if row["total_s"] < 10 else f"{row['total_s']:.1f} s"
        if name == "with_fallbacks" and ours_total:
            total += f" ({row['total_s'] / ours_total:.0f}x)"
        lines.append(f"| {label} | {total} | {row['first_ms']:.0f} ms | {row['failed_waits']:g} |")
    return lines


def bench_row(results: dict[str, Any]) -> str | None:
    """The development table's ``make bench`` row, with the measured time of the whole run."""
    seconds = results.get("bench.seconds")
    if not isinstance(seconds, int | float):
        return None
    minutes = max(1, round(seconds / 60))
    return (
        f"| `make bench` | every benchmark side by side (about {minutes} minutes in the last "
        "whole run), results in `benchmarks/RESULTS.md` |"
    )


def render(text: str, results: dict[str, Any]) -> str:
    """*text* (the README) with its benchmark lines written from *results*."""
    if START not in text or END not in text:
        raise ValueError(f"README.md lacks the markers {START} ... {END}")
    table = outage_table(results)
    if table is not None:
        head, rest = text.split(START, 1)
        _, tail = rest.split(END, 1)
        text = head + START + "\n" + "\n".join(table) + "\n" + END + tail
    row = bench_row(results)
    if row is not None:
        if not BENCH_ROW.search(text):
            raise ValueError("README.md lacks the `make bench` row of its development table")
        text = BENCH_ROW.sub(lambda _: row, text, count=1)
    return text


def write_readme(results: dict[str, Any], path: Path = README) -> Path:
    """Rewrite the README's benchmark lines in place; return its path."""
    path.write_text(render(path.read_text(), results))
    return path
