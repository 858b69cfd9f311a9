"""``make bench`` output: ``benchmarks/RESULTS.md`` and PNG plots from one run's results.

Every number comes from the run that wrote the file (``benchmarks/results/latest.json``);
nothing is copied from earlier runs. Plots need matplotlib (a dev dependency); without it the
report is written without them.
"""

from __future__ import annotations

import datetime
import platform
from pathlib import Path
from typing import Any

from benchmarks.report_outage import fleet_section, outage_section

OUT = Path(__file__).resolve().parent


def write_report(results: dict[str, Any]) -> Path:
    """Write RESULTS.md (and the plots) for *results*; return the path of RESULTS.md."""
    plots = _plots(results)
    lines = [
        "# Benchmark results",
        "",
        f"Written by `make bench` on {datetime.date.today().isoformat()} ({platform.machine()}, "
        f"Python {platform.python_version()}). Medians; each comparison ran side by side in that run.",
        "",
        "## plan() latency",
        "",
        "| tools | warm (ms) | cold (ms) |",
        "|---|---|---|",
    ]
    for size in (10, 100, 1000):
        warm, cold = results.get(f"plan_median_ms_{size}"), results.get(f"plan_cold_median_ms_{size}")
        if warm is not None:
            lines.append(f"| {size} | {warm:.4f} | {cold:.4f} |")
    lines += ["", "## Registration and plans at scale (10 compatible tools among N)", ""]
    lines += ["| tools | register (s) | first plan, all compatible (ms) | cold plan (ms) | warm plan (ms) |"]
    lines += ["|---|---|---|---|---|"]
    for size in (1_000, 10_000, 100_000):
        row = [
            results.get(k)
            for k in (
                f"register_seconds_{size}",
                f"first_plan_ms_{size}",
                f"cold_plan_10_compatible_ms_{size}",
                f"warm_plan_10_compatible_ms_{size}",
            )
        ]
        if row[0] is not None:
            lines.append(f"| {size:,} | {row[0]:.2f} | {row[1]:.1f} | {row[2]:.4f} | {row[3]:.4f} |")
    lines += outage_section(results, OUT)
    lines += fleet_section(results, OUT)
    others = sorted(
        k
        for k in results
        if not k.startswith(("plan_", "register_", "first_plan_", "cold_plan_", "warm_plan_"))
        and not k.startswith(("outage_timeline", "fleet"))
    )
    if others:
        lines += ["", "## Other measurements", "", "| measurement | value |", "|---|---|"]
        lines += [f"| `{key}` | {_fmt(results[key])} |" for key in others]
    if plots:
        lines += ["", "## Plots", ""]
        lines += [f"![{name}]({name})" for name in plots]
    path = OUT / "RESULTS.md"
    path.write_text("\n".join(lines) + "\n")
    return path


def _fmt(value: Any) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def _plots(results: dict[str, Any]) -> list[str]:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    names: list[str] = []
    sizes = [s for s in (1_000, 10_000, 100_000) if f"cold_plan_10_compatible_ms_{s}" in results]
    if sizes:
        figure, axes = plt.subplots(figsize=(6, 4))
        for key, label in (("cold_plan_10_compatible_ms", "cold"), ("warm_plan_10_compatible_ms", "warm")):
            axes.plot(sizes, [results[f"{key}_{s}"] for s in sizes], marker="o", label=label)
        axes.set_xscale("log")
        axes.set_yscale("log")
        axes.set_xlabel("registered tools")
        axes.set_ylabel("plan() median, ms")
        axes.set_title("plan() with 10 compatible tools among N")
        axes.legend()
        figure.tight_layout()
        figure.savefig(OUT / "plan_latency.png", dpi=120)
        plt.close(figure)
        names.append("plan_latency.png")
    return names
