"""The anchor comparison's plumbing: our worker answers the shared scenarios, a missing anchor
is skipped with its reason, and the report renders both cases (the anchor itself is not needed)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks import anchor_bench, report
from benchmarks.anchor import environment
from benchmarks.anchor.worker import Worker, WorkerError


def test_our_worker_plans_the_shared_registry_and_walks_the_whole_chain() -> None:
    with Worker("ours", Path(sys.executable), "ours_side.py") as ours:
        planned = ours.ask("plan", size=10, warm=3, cold=2)
        invoked = ours.ask("invoke", repeats=2, warmup=1)
        with pytest.raises(WorkerError, match="plan: "):
            ours.ask("plan", size=10, warm="three", cold=1)
    assert (len(planned["warm"]), len(planned["cold"])) == (3, 2)
    assert planned["route"] == [f"tool_{i:05d}.search" for i in range(4)]
    assert invoked["answer"]["route"] == [
        "mp_api.search",
        "mp_optimade.search",
        "mp_python.search",
        "oqmd_api.search",
    ]
    assert invoked["answer"]["records"] == [{"band_gap": 0.62}]
    assert all(len(invoked[case]) == 2 for case in ("request", "compiled plan", "single route"))


def test_a_missing_anchor_environment_is_skipped_with_its_reason(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(environment, "VENV", tmp_path / "absent")
    with pytest.raises(environment.AnchorUnavailable, match="absent"):
        environment.anchor_python(create=False)

    def unavailable() -> Path:
        raise environment.AnchorUnavailable("no network")

    monkeypatch.setattr(anchor_bench, "anchor_python", unavailable)
    assert anchor_bench.main() == {"anchor": {"skipped": "no network"}}
    lines = report._anchor_section({"anchor": {"skipped": "no network"}})
    assert lines[-1] == "Skipped in this run: no network"


def test_the_report_gives_every_case_with_its_ratio() -> None:
    row = {"same_route": True, "ours_samples": [3, 2], "anchor_samples": [1, 1]}
    row |= {"ours_warm_ms": 0.02, "anchor_warm_ms": 2.0, "warm_ratio": 100.0, "warm_cpu_ratio": 98.0}
    row |= {"ours_cold_ms": 0.2, "anchor_cold_ms": 5.0, "cold_ratio": 25.0, "cold_cpu_ratio": 24.0}
    invoke: dict[str, Any] = {
        case: {"ours_ms": 0.25, "anchor_ms": 18.0, "ratio": 72.0, "cpu_ratio": 70.0}
        for case in anchor_bench.CASES
    }
    invoke["answers"] = {side: {"route": ["oqmd_api.search"], "records": []} for side in ("ours", "anchor")}
    anchor = {
        "rounds": 3,
        "plan": {"10": row},
        "invoke": invoke,
        "register": {"1000": {"ours_register_s": 0.06, "anchor_register_s": 0.2, "ratio": 3.3}},
        "memory": {"1000": {"ours_retained_mb": 12.5, "anchor_retained_mb": 32.5, "ratio": 2.6}},
        "notes": ["a note"],
    }
    anchor["register"]["1000"] |= {"ours_build_s": 0.1, "anchor_build_s": 0.1}
    anchor["memory"]["1000"] |= {"ours_peak_mb": 12.8, "anchor_peak_mb": 34.6}
    text = "\n".join(report._anchor_section({"anchor": anchor}))
    assert "| 10 | 0.0200 | 2.00 | 100.0x | 98.0x | 0.2000 | 5.00 | 25.0x | 24.0x | 3/2, 1/1 |" in text
    assert "| 4-route chain from a request | 0.2500 | 18.000 | 72.0x | 70.0x |" in text
    assert "| 1,000 | 0.060 | 0.200 | 3.3x |" in text
    assert "| 1,000 | 12.5 | 32.5 | 2.6x |" in text
    assert text.endswith("- a note")
