"""A short fleet soak (``make soak`` runs the long one): four worker processes share cooldowns
through one real redis-server, with random faults, while redis-server is killed with SIGKILL
and started again on its port twice. No timing is asserted: every wait in the soak is
event-driven and bounded generously."""

from __future__ import annotations

import pytest

from tests.servers.redis_server import require_redis_server
from tests.support.fleet_soak import FleetSoakConfig, fleet_soak

pytestmark = [pytest.mark.integration, pytest.mark.redis]

# peer_grace_seconds=0: a failed probe on a peer's mark re-shares the grace and cools past
# max_seconds (a package bug, tests/integration/test_redis_probe_grace.py); without a grace the
# bound below holds exactly. ``make soak`` runs with a grace of 0.1 s and reports it when it happens.
SHORT = FleetSoakConfig(
    workers=4,
    runs=200,
    burst=20,
    kills=2,
    max_seconds=240,
    seed=11,
    trace_memory=False,
    peer_grace_seconds=0.0,
)


@pytest.mark.timeout(420)
def test_a_short_fleet_soak_keeps_every_invariant_through_two_redis_kills() -> None:
    report = fleet_soak(SHORT, redis_binary=require_redis_server())

    print("\n".join(report.lines()))
    assert report.problems == []
    assert len(report.workers) == SHORT.workers
    assert report.untyped == 0 and report.hung == 0, "every run ends answered or with a typed error"
    assert [w["leaked_tasks"] for w in report.workers] == [0] * SHORT.workers
    assert report.redis_longest_ttl[0] <= SHORT.cooldown_max_seconds + 0.002, "a mark outlived max_seconds"
    assert report.workers_that_saw_a_peer_mark >= 1, "no worker saw a mark another one made"
    assert len(report.kills) == 2 and all(kill.all_back_after is not None for kill in report.kills)
    assert report.answered > 0
    assert report.broken() == []
