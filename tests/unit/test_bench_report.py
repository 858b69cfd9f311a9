"""The ``make bench`` report: every target of issue 27 has a row, and the README's benchmark
lines are written from the run's results (no benchmark runs here)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benchmarks import report, report_readme, run_all, targets

ROOT = Path(__file__).resolve().parents[2]


def _results() -> dict[str, Any]:
    """One small run: every key the target rows read, each target met or missed on purpose."""
    results: dict[str, Any] = {
        "federation.ratio.faulty": 1.3,
        "federation.ratio.healthy": 7.0,
        "federation.router.gather": {"seconds": 2.0, "results_lost": 1, "requests": 6},
        "federation.OptimadeClient.get": {"seconds": 2.6, "results_lost": 1, "requests": 9},
        "imports.core_ratio": 0.8,
        "imports.langchain_face_ratio": 2.5,
        "imports.tool_class_ratio": 1.03,
        "one_route.mcp_call_tool_vs_plain": 1.2,
        "one_route.langchain_vs_plain": 1.4,
        "one_route.llamaindex_vs_plain": 1.9,
        "one_route.langchain_face": 1.05,
        "one_route.llamaindex_face": 1.3,
        "mcp_http.clients": 16.0,
        "mcp_http.ours_calls_per_s": 200.0,
        "mcp_http.bare_calls_per_s": 240.0,
        "mcp_http.server_cpu_ratio": 1.25,
        "mcp_http.throughput_ratio": 1.2,
        "memory.routes": 100_000.0,
        "memory.ours_kb_per_route": 12.1,
        "memory.structured_tool_kb_per_route": 13.2,
        "registration github.yaml s": 4.0,
        "registration github.yaml (libyaml) s": 13.0,
        "registration github.yaml (document cache) s": 1.0,
        "registration.yaml_parser": "rapidyaml",
        "registration github.yaml: CSafeLoader alone s": 10.0,
        "bench.seconds": 610.0,
        "bench.load": [0.4, 1.1],
        "bench.plan_bench.seconds": 2.0,
        "bench.anchor_bench.seconds": 400.0,
    }
    for concurrency in (1, 10, 100):
        results[f"http_invoke.c{concurrency}.ratio"] = 1.3
        results[f"http_invoke.c{concurrency}.ours_cpu_ms"] = 0.26
        results[f"http_invoke.c{concurrency}.httpx_cpu_ms"] = 0.2
    results["anchor"] = {
        "invoke": {"compiled plan": {"cpu_ratio": 160.0}},
        "memory": {"1000": {"ours_peak_mb": 10.0, "anchor_peak_mb": 34.6}},
    }
    return results


ISSUE_TARGETS = [
    "faulty federation",
    "healthy federation",
    "core import",
    "LangChain face import",
    "MCP server-side `call_tool`",
    "MCP over streamable HTTP",
    "a bare `StructuredTool`",
    "a bare `FunctionTool`",
    "LangChain face alone",
    "LlamaIndex face alone",
    "4-route chain",
    "per callable route at 100,000 routes",
    "lighter than the anchor at 1,000 tools",
    "YAML document, rapidyaml: register",
    "YAML document, libyaml forced (the default without the `fast` extra)",
    "loopback HTTP invoke, 1 concurrent",
    "loopback HTTP invoke, 100 concurrent",
    "`make bench` under 15 minutes",
]


@pytest.mark.parametrize("target", ISSUE_TARGETS)
def test_every_target_of_the_issue_has_a_measured_row(target: str) -> None:
    rows = [row for row in targets.target_rows(_results()) if target in row[0]]
    assert len(rows) == 1, target
    assert rows[0][1] != "not measured in this run"


def test_rows_without_a_target_say_so_and_never_fail() -> None:
    rows = [row for row in targets.target_rows(_results()) if row[0].startswith("(no target)")]
    assert {row[0].split(",")[0] for row in rows} >= {
        "(no target) MCP over streamable HTTP (uvicorn)",
        "(no target) loopback HTTP invoke",
        "(no target) GitHub's YAML document registered again from the document cache / `CSafeLoader` parse",
    }
    assert rows and all(holds == "-" for _, _, holds in rows)


def test_a_target_that_does_not_hold_points_to_its_profile() -> None:
    missing = dict(targets.not_holding(_results()))
    assert set(missing) == {
        "LangChain face import <= 1.5x `import langchain_core.tools`",
        "LlamaIndex face alone <= 1.1x (bare tool calling `router.invoke`)",
    }
    face = "LlamaIndex face alone <= 1.1x (bare tool calling `router.invoke`)"
    assert "profile_faces.py 3000 llamaindex" in missing[face]
    section = "\n".join(targets.targets_section(_results()))
    assert "-X importtime" in section


def test_a_row_missing_from_the_run_is_not_measured_rather_than_failed() -> None:
    rows = targets.target_rows({})
    assert rows and all(holds == "-" for _, _, holds in rows)


def test_the_readme_has_the_markers_and_the_row_the_report_rewrites() -> None:
    text = (ROOT / "README.md").read_text()
    assert report_readme.START in text and report_readme.END in text
    assert report_readme.BENCH_ROW.search(text)


def test_the_readme_outage_table_and_bench_minutes_come_from_the_results() -> None:
    variants = {
        "ours": {"total_s": 0.7, "first_ms": 505.2, "failed_waits": 1.0, "per_question_ms": [1.0] * 100},
        "ours_hedged": {"total_s": 0.8, "first_ms": 56.0, "failed_waits": 0.0},
        "with_fallbacks": {"total_s": 52.5, "first_ms": 510.0, "failed_waits": 100.0},
    }
    results = _results() | {"outage_timeline": {"variants": variants, "hedge_after_s": 0.05}}
    text = report_readme.render((ROOT / "README.md").read_text(), results)
    table = text.split(report_readme.START, 1)[1].split(report_readme.END, 1)[0]
    assert "| SchemaRouter | 0.70 s | 505 ms | 1 |" in table
    assert "| SchemaRouter with `HedgePolicy(0.05)` | 0.80 s | 56 ms | 0 |" in table
    assert "| LangChain `with_fallbacks` | 52.5 s (75x) | 510 ms | 100 |" in table
    assert "about 10 minutes in the last whole run" in text


def test_a_partial_run_leaves_the_readme_as_it_is() -> None:
    text = (ROOT / "README.md").read_text()
    assert report_readme.render(text, {"imports.core_ratio": 0.8}) == text


def test_a_readme_without_the_markers_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="markers"):
        report_readme.render("# no markers here\n", _results())


def test_the_report_gives_each_benchmark_its_seconds_beside_its_budget() -> None:
    text = "\n".join(report.seconds_section(_results()))
    assert "The whole run took 610 s (budget 900 s)" in text
    assert "| `anchor_bench` | 400.0 (over) |" in text and "| `plan_bench` | 2.0 |" in text


def test_every_benchmark_has_a_budget_and_each_lane_fits_the_whole_run() -> None:
    names = [run_all.short(name) for name in run_all.BENCHMARKS]
    assert set(names) == set(run_all.BUDGET_S)
    assert set(names) >= run_all.WAIT_BOUND
    waiting = sum(s for n, s in run_all.BUDGET_S.items() if n in run_all.WAIT_BOUND)
    busy = sum(s for n, s in run_all.BUDGET_S.items() if n not in run_all.WAIT_BOUND)
    assert max(waiting, busy) <= run_all.TOTAL_BUDGET_S - 60  # 60 s for the interpreters' start-ups


def test_the_core_import_target_is_judged_on_importing_the_router_not_the_lazy_root() -> None:
    results = {"imports.core_ratio": 0.1, "imports.router_ratio": 2.4}
    rows = {row[0]: row for row in targets.target_rows(results)}
    core = next(row for name, row in rows.items() if name.startswith("core import"))
    assert core[1] == "2.40x" and core[2] == "**no**"
    assert any("lazy root" in name and row[2] == "-" for name, row in rows.items())


def _peer_results() -> dict[str, Any]:
    results = _results()
    results.update({
        "peer_registration spotify speedup_vs_fastmcp": 2.0,
        "peer_registration stripe speedup_vs_fastmcp": 1.2,
        "peer_registration github fastmcp refused": "ValueError: no",
        "plan_cold_median_ms_1000": 1.5,
        "plan_median_ms_10": 0.05,
        "plan_median_ms_10000": 0.06,
        "plan_median_ms_1000": 0.06,
        "plan_before_median_ms_1000": 0.05,
    })  # fmt: skip
    return results


def test_registration_beside_fastmcp_is_judged_per_document_and_a_refusal_is_named() -> None:
    rows = {row[0]: row for row in targets.target_rows(_peer_results()) if "FastMCP" in row[0]}
    spotify, stripe = (
        next(r for t, r in rows.items() if t.startswith(f"register {d}'s")) for d in ("spotify", "stripe")
    )
    assert spotify[2] == "yes" and stripe[2] == "**no**"
    github = next(r for t, r in rows.items() if t.startswith("register github's"))
    assert "FastMCP refuses it (ValueError: no)" in github[0] and github[1] == "not measured in this run"


def test_a_planning_row_slower_than_before_the_reader_does_not_hold() -> None:
    rows = {row[0]: row[2] for row in targets.target_rows(_peer_results())}
    assert rows["cold plan of 1,000 tools <= 2 ms"] == "yes"
    assert rows["warm plan flat from 10 to 10,000 tools (10,000 / 10 <= 1.5x)"] == "yes"
    slower = "no planning row > 10% slower than before the question reader (worst now / before)"
    assert rows[slower] == "**no**"  # 0.06 ms now against 0.05 ms before: 1.2x
