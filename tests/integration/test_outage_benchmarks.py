"""The outage timeline benchmark measures what it says, against real loopback HTTP servers."""

from __future__ import annotations

import pytest

from benchmarks.outage_timeline_bench import hedge_policy, main

pytestmark = pytest.mark.integration


def test_the_router_pays_the_timeout_once_and_with_fallbacks_on_every_question() -> None:
    outcome = main(questions=6, client_timeout=0.2, repeats=1, wf_repeats=2)["outage_timeline"]
    ours, theirs = outcome["variants"]["ours"], outcome["variants"]["with_fallbacks"]
    assert ours["failed_waits"] == 1 and ours["primary_requests"] == 1
    assert ours["first_ms"] >= 190 and ours["rest_median_ms"] < 100
    assert theirs["failed_waits"] == 6 and theirs["primary_requests"] == 6
    assert len(theirs["per_question_ms"]) == 6 and min(theirs["per_question_ms"]) >= 190
    assert outcome["ratios"]["total with_fallbacks / ours"] > 2


@pytest.mark.skipif(hedge_policy(0.05) is None, reason="HedgePolicy is not in the package yet")
def test_the_hedged_router_answers_the_first_question_before_the_timeout() -> None:
    outcome = main(questions=3, client_timeout=0.5, repeats=1, wf_repeats=1)["outage_timeline"]
    assert outcome["variants"]["ours_hedged"]["first_ms"] < 400
