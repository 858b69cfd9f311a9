"""The with_fallbacks comparison measures what it says: one failed wait against one per question."""

from __future__ import annotations

from benchmarks.with_fallbacks_bench import main


def test_the_router_pays_one_failed_wait_and_with_fallbacks_one_per_question() -> None:
    outcome = main(questions=10, failed_wait=0.001)["with_fallbacks_outage"]
    assert outcome["router"]["failed_waits"] == 1
    assert outcome["with_fallbacks"]["failed_waits"] == 10
