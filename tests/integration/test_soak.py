"""A short soak (``make soak`` runs the long one): random faults over 20 routes while the
health monitor probes, in bursts of 200 concurrent runs."""

from __future__ import annotations

import pytest

from tests.support.soak import soak

pytestmark = [pytest.mark.integration, pytest.mark.anyio]


@pytest.mark.timeout(900)  # it took 244 s of the old 300 s bound at load 10-20 on 2 cores
async def test_a_short_soak_ends_every_run_typed_leaks_no_task_and_lets_every_cooldown_expire() -> None:
    report = await soak(1000, burst=200, seed=11)

    print("\n".join(report.lines()))
    assert report.runs == 1000
    assert report.untyped == []
    assert report.leaked_tasks == 0
    assert report.cooldowns_left == []
    assert report.outcomes["answered"] > 0
    assert sum(report.callable_faults.values()) > 0 and sum(report.http_faults.values()) > 0
    assert report.end_mib - report.warm_mib < 2.0, "memory grew after warm-up"
