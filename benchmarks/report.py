"""``make bench`` output: ``benchmarks/RESULTS.md`` and PNG plots from one run's results.

Every number comes from the run that wrote the file (``benchmarks/results/latest.json``);
nothing is copied from earlier runs. Plots need matplotlib (a dev dependency); without it the
report is written without them.
"""

from __future__ import annotations

import datetime
import platform
import re
import shutil
from pathlib import Path
from typing import Any

from benchmarks.cache_bench import cache_section
from benchmarks.report_outage import fleet_section, outage_section
from benchmarks.report_readme import write_readme
from benchmarks.report_registration import peer_registration_section
from benchmarks.run_all import BENCHMARKS, BUDGET_S, TOTAL_BUDGET_S, short
from benchmarks.targets import target_rows, targets_section

OUT = Path(__file__).resolve().parent
DOCS = OUT.parent / "docs"
DOCS_INTRO = [
    "# Benchmarks",
    "",
    "Everything on this page is written by `make bench` (`benchmarks/run_all.py`) from one run; "
    "nothing is copied by hand. Each comparison ran side by side in that run, alternating the "
    "two sides, and is reported as a ratio of medians. The machine that wrote it is shared "
    "with other work, so its absolute times are slower and noisier than on an idle machine; "
    "compare the ratios. Where a target does not hold, the benchmark names it.",
    "",
    "Reproduce with `make bench` (it creates the anchor's environment, `make anchor-venv`, "
    "when missing; the memory benchmark's size is `SCHEMAROUTER_BENCH_ROUTES`).",
    "",
    "What each benchmark compares (all in `benchmarks/`):",
    "",
    "- `federation_bench.py`: `router.gather` against `optimade.client.OptimadeClient` over five "
    "local OPTIMADE databases, healthy, and with one hanging and one answering 429 with "
    "`Retry-After: 1`. A gather pays a timeout once: a transport failure of a gathered route is "
    "not retried (its origin cools down and the gather reports it), a 429 or 503 is retried at "
    "most once, after its `Retry-After`, when that fits the retry policy and the run budget.",
    "- `import_bench.py`: `python -X importtime` medians of the core and the LangChain face "
    "against `pydantic` + `httpx` and `langchain_core.tools`. Importing the core loads no "
    "framework, tracer, server, schema checker or parser (`tests/unit/test_import_cost.py`); "
    "`jsonschema` loads with the first contract checked.",
    "- `one_route_bench.py`: one healthy in-process route, each face against the framework's bare "
    "tool over the same coroutine and against a bare tool calling `router.invoke` (CPU-time "
    "medians, which other load on the machine disturbs far less than wall time).",
    "- `memory_bench.py`: resident memory per callable route against one `StructuredTool` per "
    "function, each side in a fresh interpreter.",
    "- `registration_bench.py`: registering real OpenAPI documents, with GitHub's YAML document "
    "beside libyaml's `CSafeLoader` parsing it alone.",
    "- `peer_registration_bench.py`: Spotify's, Stripe's and GitHub's documents registered by the "
    "router, by `fastmcp` 4.2.3's `FastMCP.from_openapi` and by LangChain's OpenAPI tools, each peer "
    "in its own venv; CPU seconds decide, and the documents a peer refuses are listed.",
    "- `anchor_bench.py`: side by side with PyPI `schemarouter` 0.17.0 in its own environment.",
    "- `mcp_http_bench.py`: the router's MCP tool served over streamable HTTP by uvicorn against a "
    "bare `mcp` server tool over the same function, 16 client sessions, calls per second and the "
    "server's CPU per call.",
    "- `http_invoke_bench.py`: a loopback HTTP invoke through an OpenAPI route against a plain "
    "`httpx.AsyncClient` GET, 1, 10 and 100 concurrent callers, CPU per request.",
    "- `stdio_handshake_bench.py`: `serve-mcp` over stdio on a one-route landscape, from the "
    "process start until `tools/list` answers, against a bare `mcp` SDK server with one tool, "
    "alternating rounds, medians (the aim: under 1 s on a quiet machine).",
    "",
    "Each benchmark runs in its own interpreter; the section *Seconds per benchmark* gives each "
    "one's wall time beside its budget (the whole run must stay under 15 minutes).",
    "",
]


def write_report(results: dict[str, Any]) -> Path:
    """Write RESULTS.md (and the plots) for *results*; return the path of RESULTS.md."""
    plots = [*_plots(results), *_anchor_plot(results), *_targets_plot(results)]
    lines = [
        "# Benchmark results",
        "",
        f"Written by `make bench` on {datetime.date.today().isoformat()} ({platform.machine()}, "
        f"Python {platform.python_version()}). Medians; each comparison ran side by side in that run.",
        "",
        *targets_section(results),
        "",
        "## plan() latency",
        "",
        "| tools | warm (ms) | cold (ms) | warm before the reader (ms) | cold before the reader (ms) |",
        "|---|---|---|---|---|",
    ]
    for size in (10, 100, 1000, 10000):
        warm, cold = results.get(f"plan_median_ms_{size}"), results.get(f"plan_cold_median_ms_{size}")
        before = [results.get(f"plan_before{kind}_median_ms_{size}") for kind in ("", "_cold")]
        cells = " | ".join(f"{v:.4f}" if v is not None else "-" for v in before)
        if warm is not None:
            lines.append(f"| {size} | {warm:.4f} | {cold:.4f} | {cells} |")
    lines += _anchor_section(results)
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
    lines += peer_registration_section(results)
    lines += outage_section(results, OUT)
    lines += fleet_section(results, OUT)
    lines += _hedge_section(results)
    lines += cache_section(results)
    lines += seconds_section(results)
    others = sorted(
        k
        for k in results
        if not k.startswith(("plan_", "register_", "first_plan_", "cold_plan_", "warm_plan_", "anchor"))
        and not isinstance(results[k], dict)
        and not k.startswith(("outage_timeline", "fleet", "hedge.", "cache_", "bench.", "peer_"))
    )
    if others:
        lines += ["", "## Other measurements", "", "| measurement | value |", "|---|---|"]
        lines += [f"| `{key}` | {_fmt(results[key])} |" for key in others]
    if plots:
        lines += ["", "## Plots", ""]
        lines += [f"![{name}]({name})" for name in plots]
    path = OUT / "RESULTS.md"
    path.write_text("\n".join(lines) + "\n")
    _write_docs(lines, plots)
    write_readme(results)
    return path


def seconds_section(results: dict[str, Any]) -> list[str]:
    """Each benchmark's wall time in this run beside its budget, and the whole run's."""
    if not any(f"bench.{short(name)}.seconds" in results for name in BENCHMARKS):
        return []
    lines = ["", "## Seconds per benchmark", ""]
    total = results.get("bench.seconds")
    if total is not None:
        load = results.get("bench.load")
        at = f", load average {load[0]} at the start and {load[1]} at the end" if load else ""
        lines += [f"The whole run took {total:.0f} s (budget {TOTAL_BUDGET_S} s){at}.", ""]
    lines += ["| benchmark | seconds | budget (s) |", "|---|---|---|"]
    for name in BENCHMARKS:
        seconds = results.get(f"bench.{short(name)}.seconds")
        if seconds is not None:
            over = " (over)" if seconds > BUDGET_S[short(name)] else ""
            lines.append(f"| `{short(name)}` | {seconds:.1f}{over} | {BUDGET_S[short(name)]} |")
    return lines


def _write_docs(lines: list[str], plots: list[str]) -> Path:
    """``docs/benchmarks.md``: the same report, its plots copied under ``docs/assets/``."""
    assets = DOCS / "assets"
    assets.mkdir(parents=True, exist_ok=True)
    for name in {*plots, *(p.name for p in OUT.glob("*.png"))}:
        if (OUT / name).is_file():
            shutil.copyfile(OUT / name, assets / name)
    body = [line for line in lines[1:]]  # the report's own title gives way to the page's
    text = "\n".join([*DOCS_INTRO, *body]) + "\n"
    text = re.sub(r"!\[([^\]]*)\]\(([^)/]+\.png)\)", r"![\1](assets/\2)", text)
    page = DOCS / "benchmarks.md"
    page.write_text(text)
    return page


def _targets_plot(results: dict[str, Any]) -> list[str]:
    """Each measured target as measured / target (a bar left of 1 holds, for <= targets)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    rows = [(t, m, h) for t, m, h in target_rows(results) if h in ("yes", "**no**")]
    if not rows:
        return []
    figure, axes = plt.subplots(figsize=(8, 0.4 * len(rows) + 1))
    labels = [t.replace("`", "")[:70] for t, _, _ in rows]
    colours = ["tab:green" if h == "yes" else "tab:red" for _, _, h in rows]
    axes.barh(range(len(rows)), [1] * len(rows), color=colours)
    axes.set_yticks(range(len(rows)), labels, fontsize=7)
    axes.set_xticks([])
    for index, (_, measured, _) in enumerate(rows):
        axes.text(0.02, index, measured.replace("`", "")[:60], va="center", fontsize=7, color="white")
    axes.invert_yaxis()
    axes.set_title("performance targets in this run (green: holds)")
    figure.tight_layout()
    figure.savefig(OUT / "targets.png", dpi=120)
    plt.close(figure)
    return ["targets.png"]


def _hedge_section(results: dict[str, Any]) -> list[str]:
    """The two hedging targets (``hedge_bench``): outage onset and extra calls while healthy."""
    r = results
    if "hedge.onset.hedged_ms" not in r:
        return []
    return [
        "",
        "## Hedging targets (`hedge_bench`)",
        "",
        "| measurement | value | target |",
        "|---|---|---|",
        f"| first question of an outage, hedged after {r['hedge.onset.after_ms']:.0f} ms (median) "
        f"| {r['hedge.onset.hedged_ms']:.1f} ms = after + fallback {r['hedge.onset.mirror_ms']:.1f} ms "
        f"+ {r['hedge.onset.overhead_ms']:.1f} ms | overhead <= 10 ms |",
        f"| the same, unhedged | {r['hedge.onset.unhedged_ms']:.1f} ms "
        f"({r['hedge.onset.ratio_unhedged_over_hedged']}x the hedged time) | - |",
        f"| extra calls while healthy ({r['hedge.healthy.slow_share']:.0%} of calls slow), "
        f"{r['hedge.healthy.calls']:.0f} calls | {r['hedge.healthy.extra_fraction']:.1%} "
        f"| <= {r['hedge.healthy.max_extra_fraction']:.0%} (bound: 10% + burst of 5) |",
        f"| the same after the first 100 calls | {r['hedge.healthy.extra_fraction_after_burst']:.1%} "
        f"| <= {r['hedge.healthy.max_extra_fraction']:.0%} |",
    ]


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


def _anchor_section(results: dict[str, Any]) -> list[str]:
    """The side-by-side tables against PyPI ``schemarouter`` 0.17.0 (``anchor_bench``)."""
    anchor = results.get("anchor")
    if not isinstance(anchor, dict):
        return []
    lines = ["", "## Side by side with the anchor (PyPI `schemarouter` 0.17.0)", ""]
    if "skipped" in anchor:
        return [*lines, f"Skipped in this run: {anchor['skipped']}"]
    lines += [
        f"Both packages ran the same scenarios (`benchmarks/anchor/shapes.py`) in two worker processes, "
        f"ours in our environment and the anchor in `benchmarks/.anchor-venv`, alternating in each of "
        f"{anchor['rounds']} rounds. Medians over every round's samples; ratio = anchor / ours "
        "(higher: ours is faster or smaller). The scenario differences the two APIs force are listed "
        "in `benchmarks/anchor/__init__.py`. "
        "Wall-clock medians; the CPU ratio (process CPU time, anchor / ours) is shown beside them "
        "because it is less disturbed by other load on the machine.",
        "",
        "| plan(), tools | ours warm (ms) | anchor warm (ms) | ratio | CPU ratio | ours cold (ms) "
        "| anchor cold (ms) | ratio | CPU ratio | samples warm/cold: ours, anchor |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for size, row in anchor["plan"].items():
        counts = f"{'/'.join(map(str, row['ours_samples']))}, {'/'.join(map(str, row['anchor_samples']))}"
        cells = []
        for kind in ("warm", "cold"):
            cells.append(
                f"{row[f'ours_{kind}_ms']:.4f} | {row[f'anchor_{kind}_ms']:.2f} | {row[f'{kind}_ratio']:,}x "
                f"| {row[f'{kind}_cpu_ratio']:,}x"
            )
        lines.append(f"| {int(size):,} | {' | '.join(cells)} | {counts} |")
    lines += ["", "| invoke (in-process routes) | ours (ms) | anchor (ms) | ratio | CPU ratio |"]
    lines += ["|---|---|---|---|---|"]
    labels = {
        "request": "4-route chain from a request",
        "compiled plan": "4-route chain from a compiled plan",
        "single route": "1 healthy route from a request",
    }
    for case, label in labels.items():
        row = anchor["invoke"][case]
        times = f"{row['ours_ms']:.4f} | {row['anchor_ms']:.3f} | {row['ratio']:,}x | {row['cpu_ratio']:,}x"
        lines.append(f"| {label} | {times} |")
    lines += [
        "",
        "| registering N tools | ours (s) | anchor (s) | ratio | building contracts: ours, anchor (s) |",
    ]
    lines += ["|---|---|---|---|---|"]
    for size, row in anchor["register"].items():
        times = f"{row['ours_register_s']:.3f} | {row['anchor_register_s']:.3f} | {row['ratio']}x"
        lines.append(f"| {int(size):,} | {times} | {row['ours_build_s']:.3f}, {row['anchor_build_s']:.3f} |")
    lines += [
        "",
        "| memory (tracemalloc), tools | ours kept (MB) | anchor kept (MB) | ratio | peak: ours, anchor |",
    ]
    lines += ["|---|---|---|---|---|"]
    for size, row in anchor["memory"].items():
        kept = f"{row['ours_retained_mb']:.1f} | {row['anchor_retained_mb']:.1f} | {row['ratio']}x"
        lines.append(f"| {int(size):,} | {kept} | {row['ours_peak_mb']:.1f}, {row['anchor_peak_mb']:.1f} |")
    same = all(row["same_route"] for row in anchor["plan"].values())
    answers = anchor["invoke"]["answers"]
    lines += [
        "",
        f"Both sides planned {'the same' if same else 'different'} primary and fallbacks at every size; "
        f"the chain answered through `{answers['ours']['route'][-1]}` (ours `{answers['ours']['records']}`, "
        f"anchor `{answers['anchor']['records']}`).",
    ]
    lines += [f"- {note}" for note in anchor.get("notes", [])]
    return lines


def _anchor_plot(results: dict[str, Any]) -> list[str]:
    """``anchor_plan_latency.png``: plan() latency against registry size, both sides, log-log."""
    anchor = results.get("anchor")
    if not isinstance(anchor, dict) or "plan" not in anchor:
        return []
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    sizes = sorted(int(size) for size in anchor["plan"])
    figure, axes = plt.subplots(figsize=(6.5, 4.5))
    for key, label, style in (
        ("ours_cold_ms", "ours, cold", "o-"),
        ("ours_warm_ms", "ours, warm", "o--"),
        ("anchor_cold_ms", "anchor 0.17.0, cold", "s-"),
        ("anchor_warm_ms", "anchor 0.17.0, warm", "s--"),
    ):
        axes.plot(sizes, [anchor["plan"][str(size)][key] for size in sizes], style, label=label)
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel("registered tools")
    axes.set_ylabel("plan() median, ms")
    axes.set_title("plan() against registry size: ours and the anchor")
    axes.legend()
    figure.tight_layout()
    figure.savefig(OUT / "anchor_plan_latency.png", dpi=120)
    plt.close(figure)
    return ["anchor_plan_latency.png"]
