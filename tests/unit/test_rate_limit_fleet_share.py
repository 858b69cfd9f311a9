"""While Redis cannot be asked, each process keeps its share of a fleet's rate limit alone:
``per_second / fleet_size`` with ``burst / fleet_size`` (at least one), starting empty."""

from __future__ import annotations

import pytest

from schemarouter_integrations.stores import RedisRateLimiter
from schemarouter_integrations.stores._breaker import Breaker

pytestmark = pytest.mark.anyio

UNREACHABLE = "redis://127.0.0.1:9/0"  # the discard port: nothing answers Redis there


def opened_breaker() -> Breaker:
    breaker = Breaker()
    while breaker.state != "open":
        breaker.failed()
    return breaker


async def test_with_redis_away_a_process_reserves_only_its_share_starting_empty() -> None:
    limiter = RedisRateLimiter(UNREACHABLE, "share", breaker=opened_breaker(), fleet_size=4)
    waits = [await limiter.reserve("k", per_second=8.0, burst=4.0, max_wait=1.0) for _ in range(3)]
    # a share of 2 calls/s, burst 1, starting empty: 0.5 s, then 1.0 s, then over the max wait
    assert waits[0] == pytest.approx(0.5, abs=0.05)
    assert waits[1] == pytest.approx(1.0, abs=0.05)
    assert waits[2] is None
    assert limiter.status()["local_calls"] == 2


async def test_a_fleet_of_one_keeps_the_whole_limit_while_redis_is_away() -> None:
    limiter = RedisRateLimiter(UNREACHABLE, "share", breaker=opened_breaker())
    waits = [await limiter.reserve("k", per_second=10.0, burst=2.0, max_wait=1.0) for _ in range(3)]
    assert waits[0] == pytest.approx(0.1, abs=0.05)  # empty at first: one interval
    assert all(w is not None for w in waits)


@pytest.mark.parametrize("size", [0, -1, 1.5, True])
def test_a_fleet_size_that_is_not_a_whole_number_of_processes_is_refused(size: object) -> None:
    with pytest.raises(ValueError, match="fleet_size"):
        RedisRateLimiter(UNREACHABLE, "share", fleet_size=size)  # type: ignore[arg-type]
