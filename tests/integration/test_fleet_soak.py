"""Short fleet soaks (``make soak`` runs the long ones): four worker processes share cooldowns
through one real redis-server, with random faults, while redis-server is killed with SIGKILL
and started again on its port twice; and the stores soak (answers, cooldowns and rate limits
on Redis, two tenants, skewed clocks, a chain of routers). No timing is asserted: every wait
in the soaks is event-driven and bounded generously."""

from __future__ import annotations

import pytest

from tests.servers.redis_server import require_redis_server
from tests.support.fleet_soak import FleetSoakConfig, fleet_soak
from tests.support.store_soak import StoreSoakConfig, StoreSoakReport, store_soak

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


# The stores soak, short: four workers sharing Redis for answers, cooldowns and rate limits
# while Redis is killed once and hung once, two tenants on one namespace, two workers' clocks
# 120 s ahead, a router of routers three levels deep whose inner sources go down.
STORES = StoreSoakConfig(workers=4, seconds=20.0, burst=10, kills=1, hangs=1, outage_seconds=3.0, seed=3)


@pytest.fixture(scope="module")
def stores_report() -> StoreSoakReport:
    report = store_soak(STORES, redis_binary=require_redis_server())
    print("\n".join(report.lines()))
    return report


def held(report: StoreSoakReport, name: str) -> bool:
    (found,) = [ok for invariant, ok, _ in report.invariants() if invariant.startswith(name)]
    return found


def test_the_stores_soak_ran_its_faults_on_every_worker(stores_report: StoreSoakReport) -> None:
    assert held(stores_report, "every worker ran and reported"), stores_report.problems
    assert held(stores_report, "the faults happened")


def test_in_the_stores_soak_every_question_ends_answered_or_typed_and_none_hangs(
    stores_report: StoreSoakReport,
) -> None:
    assert held(stores_report, "no question hung")
    assert held(stores_report, "every question answered or typed")


def test_the_chain_of_routers_answers_across_the_inner_outage_naming_all_three_levels(
    stores_report: StoreSoakReport,
) -> None:
    assert held(stores_report, "the chain answers every question")
    assert held(stores_report, "answers through the chain name all three levels")


def test_no_tenant_is_served_the_other_tenants_answer(stores_report: StoreSoakReport) -> None:
    assert held(stores_report, "no wrong tenant's answer")


def test_no_answer_older_than_its_ttl_is_served_as_fresh_across_skewed_clocks(
    stores_report: StoreSoakReport,
) -> None:
    assert held(stores_report, "no answer older than its TTL served as fresh")


# The service refuses more than burst + w * per_second (+ 1) calls in any 1 s or 0.25 s window.
# Processes come back to Redis one by one after an outage (their breakers pause for different
# times); each one pays what its local share spent and keeps its share during the handover.
def test_the_rate_limited_service_never_answers_429(stores_report: StoreSoakReport) -> None:
    assert held(stores_report, "no 429 from the rate-limited service")
