"""RESULTS.md sections and plots for the outage benchmarks (outage timeline and fleet).

Each section function takes one run's results and the output folder, writes its plot there
(when matplotlib is importable) and returns the Markdown lines, the plot embedded.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

VARIANT_LABELS = {
    "ours": "SchemaRouter",
    "ours_hedged": "SchemaRouter, hedged",
    "with_fallbacks": "LangChain with_fallbacks",
}


def _ratio(slow: float, fast: float) -> str:
    if fast == 0:
        return f"{slow:g} vs 0" if slow else "both 0"
    return f"{slow / fast:.2f}x"


def _indices(indices: list[int]) -> str:
    if not indices:
        return "none"
    return ", ".join(map(str, indices[:10])) + (f" and {len(indices) - 10} more" if len(indices) > 10 else "")


def _pyplot() -> Any | None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def outage_section(results: dict[str, Any], out: Path) -> list[str]:
    """The outage timeline: per-variant rows, the side-by-side ratios, the hedging target, the plot."""
    outcome = results.get("outage_timeline")
    if not outcome:
        return []
    variants: dict[str, Any] = outcome["variants"]
    lines = [
        "",
        "## Outage timeline: 100 questions from the moment the primary hangs",
        "",
        f"Real loopback HTTP servers; the primary accepts and never answers (client timeout "
        f"{outcome['client_timeout_s']} s), the same-provider fallback answers at once "
        f"(the router answering from it alone: {outcome['fallback_alone_ms']:.3f} ms). "
        f"Hedged: `HedgePolicy(after_seconds={outcome['hedge_after_s']})`. Per question index, the "
        "median across repeats; totals are medians of the repeats' totals. "
        "`benchmarks/outage_timeline_bench.py`.",
        "",
        "| variant | repeats | total (s) | question 1 (ms) | questions 2-100, median (ms) | worst (ms) "
        f"| failed waits | answers > {(outcome['hedge_after_s'] + 0.05) * 1000:.0f} ms "
        "| requests to the hung primary |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, row in variants.items():
        rest = f"{row['rest_median_ms']:.3f}"
        lines.append(
            f"| {VARIANT_LABELS.get(name, name)} | {row['repeats']} | {row['total_s']:.3f} "
            f"| {row['first_ms']:.1f} | {rest} | {row['worst_ms']:.1f} | {row['failed_waits']:g} "
            f"| {row['slow_answers']:g} | {row['primary_requests']:g} |"
        )
    if "ours_hedged" not in variants:
        lines += ["", "Hedged variant not run: `HedgePolicy` was not importable in this run."]
    if outcome.get("ratios"):
        lines += ["", "| comparison (same run) | ratio |", "|---|---|"]
        lines += [f"| {name} | {value:.2f}x |" for name, value in outcome["ratios"].items()]
    target = outcome.get("hedge_target")
    if target:
        verdict = "met" if target["met"] else "**not met**"
        lines += [
            "",
            f"Hedging target (question 1 <= after_seconds + fallback + 10 ms = {target['limit_ms']:.1f} ms): "
            f"{target['first_ms']:.1f} ms, {verdict}. Questions of the sequence over that limit: "
            f"{_indices(target['questions_over_limit'])}.",
        ]
    if _outage_plot(outcome, out):
        lines += ["", "![outage timeline](outage_timeline.png)"]
    return lines


def _outage_plot(outcome: dict[str, Any], out: Path) -> bool:
    plt = _pyplot()
    if plt is None:
        return False
    figure, axes = plt.subplots(figsize=(7, 4))
    for name, row in outcome["variants"].items():
        series = row["per_question_ms"]
        axes.plot(range(1, len(series) + 1), series, marker=".", label=VARIANT_LABELS.get(name, name))
    axes.axhline(outcome["client_timeout_s"] * 1000, color="grey", linestyle=":", label="client timeout")
    axes.set_yscale("log")
    axes.set_xlabel("question index (1 = first question after the primary hangs)")
    axes.set_ylabel("time to answer, ms (median over repeats)")
    axes.set_title("Outage timeline")
    axes.legend()
    figure.tight_layout()
    figure.savefig(out / "outage_timeline.png", dpi=120)
    plt.close(figure)
    return True


def fleet_section(results: dict[str, Any], out: Path) -> list[str]:
    """The fleet of worker processes: per-config rows, ratios against the memory fleet, the plot."""
    fleet = results.get("fleet_timeline")
    if not fleet:
        return []
    settings, configs = fleet["settings"], fleet["configs"]
    lines = [
        "",
        f"## Fleet: {settings['workers']} worker processes, primary hanging",
        "",
        f"Every fleet ran side by side for {settings['run_s']:g} s against its own hanging primary "
        f"(client timeout {settings['client_timeout_s']} s, cooldown {settings['cooldown_s']} s). "
        "A failed wait paid the whole timeout; a slow answer took more than "
        f"{settings['slow_after_s']:.2f} s (hedged: after {settings['hedge_after_s']} s). "
        f"Medians of {settings.get('repeats', 1)} repeats (per second: per bin). "
        "`benchmarks/fleet_bench.py`.",
        "",
        "| config | questions | failed waits | first second | later per cooldown window | slow answers "
        "| median (ms) | p95 (ms) | requests to the hung primary |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for label, run in configs.items():
        lines.append(
            f"| {label} | {run['questions']} | {run['failed_waits']} | {run['discovery']} "
            f"| {run['later_per_window']:.2f} | {run['slow_answers']} | {run['median_ms']:.2f} "
            f"| {run['p95_ms']:.1f} | {run['server_requests']} |"
        )
    pairs = [("memory", label) for label in configs if label != "memory" and "memory" in configs]
    pairs += [(label.removesuffix(" hedged"), label) for label in configs if label.endswith(" hedged")]
    pairs = [(a, b) for a, b in pairs if a in configs and a != b]
    if pairs:
        lines += ["", "| comparison (same run) | failed waits | slow answers |", "|---|---|---|"]
        for slow, fast in dict.fromkeys(pairs):
            lines.append(
                f"| {slow} / {fast} | {_ratio(configs[slow]['failed_waits'], configs[fast]['failed_waits'])} "
                f"| {_ratio(configs[slow]['slow_answers'], configs[fast]['slow_answers'])} |"
            )
    if _fleet_plot(fleet, out):
        lines += ["", "![fleet](fleet.png)"]
    return lines


def _fleet_plot(fleet: dict[str, Any], out: Path) -> bool:
    plt = _pyplot()
    if plt is None:
        return False
    figure, (failed, slow) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    markers = "osD^vP*X"
    count = len(fleet["configs"])
    for index, (label, run) in enumerate(fleet["configs"].items()):
        shift = (index - (count - 1) / 2) * 0.06  # sideways, so equal counts stay visible
        seconds = [second + 0.5 + shift for second in range(len(run["failed_per_second"]))]
        style = {"linestyle": "--" if "hedged" in label else "-", "marker": markers[index % len(markers)]}
        failed.plot(seconds, run["failed_per_second"], label=label, **style)
        slow.plot(seconds, run["slow_per_second"], label=label, **style)
    failed.set_ylabel("failed waits per second")
    failed.set_title(f"{fleet['settings']['workers']} worker processes, primary hanging")
    slow.set_ylabel(f"answers > {fleet['settings']['slow_after_s']:.2f} s per second")
    slow.set_xlabel("second of the run (each point: the count in that second, median over repeats)")
    failed.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(out / "fleet.png", dpi=120)
    plt.close(figure)
    return True
