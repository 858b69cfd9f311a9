"""The fleet counts and the outage report sections: counted per second, ratios side by side."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchmarks.fleet_bench import median_of, per_second, summary
from benchmarks.report_outage import fleet_section, outage_section


def test_the_fleet_counts_failed_waits_and_slow_answers_per_second_of_the_run() -> None:
    worker_a = [(0.1, 0.51, True), (0.9, 0.0005, False), (3.2, 0.52, True)]
    worker_b = [(0.4, 0.07, True), (2.5, 0.2, True), (7.9, 0.001, False)]
    run = summary([worker_a, worker_b])
    assert (run["questions"], run["failed_waits"], run["slow_answers"]) == (6, 2, 3)
    assert run["discovery"] == 1 and run["later"] == 1 and run["primary_tried"] == 4
    assert run["failed_per_second"] == [1, 0, 0, 1, 0, 0, 0, 0]
    assert run["slow_per_second"] == [1, 0, 1, 1, 0, 0, 0, 0]
    assert per_second([-0.01, 99.0]) == [1, 0, 0, 0, 0, 0, 0, 1]


def test_repeats_are_combined_by_their_median_bin_by_bin() -> None:
    runs = [
        {"failed_waits": n, "slow_answers": n, "failed_per_second": [n, 0], "slow_per_second": [0, n]}
        for n in (1, 5, 3)
    ]
    combined = median_of(runs)
    assert combined["failed_waits"] == 3 and combined["failed_per_second"] == [3, 0]
    assert combined["failed_waits_each_repeat"] == [1, 5, 3] and combined["repeats"] == 3


def _variant(first: float, rest: float) -> dict[str, Any]:
    series = [first] + [rest] * 3
    return {
        "repeats": 3,
        "per_question_ms": series,
        "total_s": sum(series) / 1000,
        "first_ms": first,
        "rest_median_ms": rest,
        "worst_ms": max(series),
        "failed_waits": 1,
        "slow_answers": 1,
        "primary_requests": 1,
    }


def test_the_outage_section_reports_each_variant_its_ratios_and_the_plot(tmp_path: Path) -> None:
    outcome = {
        "variants": {"ours": _variant(500.0, 1.0), "with_fallbacks": _variant(500.0, 500.0)},
        "ratios": {"total with_fallbacks / ours": 3.98},
        "client_timeout_s": 0.5,
        "hedge_after_s": 0.05,
        "fallback_alone_ms": 1.0,
    }
    text = "\n".join(outage_section({"outage_timeline": outcome}, tmp_path))
    assert "| total with_fallbacks / ours | 3.98x |" in text
    assert "| LangChain with_fallbacks | 3 | 2.000 |" in text
    assert "Hedged variant not run" in text
    assert "![outage timeline](outage_timeline.png)" in text and (tmp_path / "outage_timeline.png").exists()


def test_the_fleet_section_compares_every_config_with_the_memory_fleet(tmp_path: Path) -> None:
    def config(failed: int, slow: int) -> dict[str, Any]:
        return {
            "questions": 100, "failed_waits": failed, "discovery": 1, "later_per_window": 1.0,
            "slow_answers": slow, "median_ms": 0.5, "p95_ms": 500.0, "server_requests": failed,
            "failed_per_second": [failed, 0], "slow_per_second": [slow, 0],
        }  # fmt: skip

    settings = {"workers": 8, "run_s": 2.0, "client_timeout_s": 0.5, "cooldown_s": 2.0}
    settings |= {"slow_after_s": 0.1, "hedge_after_s": 0.05}
    fleet = {
        "settings": settings,
        "configs": {
            "memory": config(24, 24),
            "redis": config(8, 6),
            "h": config(0, 0),
            "redis hedged": config(0, 2),
        },
    }
    text = "\n".join(fleet_section({"fleet_timeline": fleet}, tmp_path))
    assert "| memory / redis | 3.00x | 4.00x |" in text
    assert "| memory / h | 24 vs 0 | 24 vs 0 |" in text
    assert "| redis / redis hedged | 8 vs 0 | 3.00x |" in text
    assert (tmp_path / "fleet.png").exists()
