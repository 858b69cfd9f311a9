"""A fleet sharing one rate limit through Redis keeps ``burst + w * per_second`` calls in every
window of ``w`` seconds across a Redis outage: going local, while some processes are back on
Redis and others still decide alone (their breakers paused longer), and after.

Redis here is a double of the limiter's script on the test's clock (the real script runs in
``tests/integration/test_fleet_soak.py`` against a real redis-server killed and hung)."""

from __future__ import annotations

import bisect
from types import SimpleNamespace
from typing import Any

import pytest

from schemarouter_integrations.stores import RedisRateLimiter, _redis_ratelimit
from schemarouter_integrations.stores._breaker import Breaker

pytestmark = pytest.mark.anyio

RATE, BURST, MAX_WAIT = 10.0, 4.0, 0.5
KEY = "route:limited"
STEP = 0.01  # every process asks for a turn this often: a busy fleet


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class FakeRedis:
    """The GCRA script in Python on the test's clock: the TAT (and the handover key, when the
    script is given two keys). Killed, every command fails and the state is lost."""

    url = "redis://127.0.0.1:6379/0"

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.values: dict[str, int] = {}
        self.up = True

    def current(self) -> FakeRedis:
        return self

    async def aclose(self) -> None:
        return None

    async def eval(self, script: str, numkeys: int, *keys_and_args: Any) -> Any:
        if not self.up:
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        keys, args = keys_and_args[:numkeys], [int(a) for a in keys_and_args[numkeys:]]
        now = round(self.clock() * 1_000_000)
        interval, tolerance, max_wait = args[:3]
        debt, handover = (args[3], args[4]) if len(args) > 3 else (0, 0)
        tat = max(self.values.get(keys[0], 0), now) + debt
        until = self.values.get(keys[1], 0) if numkeys > 1 else 0
        if handover > 0 and now + handover > until:
            until = self.values[keys[1]] = now + handover
        left = max(0, until - now)
        wait = max(0, tat - tolerance - now)
        if wait > max_wait:
            self.values[keys[0]] = tat
            return [-1, left] if numkeys > 1 else -1
        self.values[keys[0]] = tat + interval
        return [wait, left] if numkeys > 1 else wait


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(_redis_ratelimit, "time", SimpleNamespace(monotonic=clock))
    return clock


def fleet(redis: FakeRedis, clock: Clock, first_pauses: list[float]) -> list[RedisRateLimiter]:
    limiters = []
    for pause in first_pauses:
        breaker = Breaker(first_pause_seconds=pause, clock=clock)
        limiter = RedisRateLimiter(redis.url, "fleet", breaker=breaker, fleet_size=len(first_pauses))
        limiter._clients = redis  # type: ignore[assignment]
        limiters.append(limiter)
    return limiters


async def run(
    limiters: list[RedisRateLimiter], clock: Clock, until: float, redis: FakeRedis, **faults: Any
) -> list[float]:
    """Every process asks for a turn each STEP until *until*; the start times of the turns.
    *faults*: ``down=(from, to)`` (Redis killed, then started again empty)."""
    starts: list[float] = []
    down = faults.get("down", (float("inf"), float("inf")))
    while clock.now < until:
        redis.up = not (down[0] <= clock.now < down[1])
        if not redis.up:
            redis.values.clear()
        for limiter in limiters:
            wait = await limiter.reserve(KEY, RATE, BURST, MAX_WAIT)
            if wait is not None:
                starts.append(clock.now + wait)
        clock.now = round(clock.now + STEP, 6)
    return sorted(starts)


def densest(starts: list[float], window: float) -> tuple[int, float]:
    """The most calls starting in any window ``[t, t + window)``, and its ``t``."""
    best = (0, 0.0)
    for i, t in enumerate(starts):
        count = bisect.bisect_left(starts, t + window - 1e-6) - i
        best = max(best, (count, t))
    return best


@pytest.mark.parametrize("window", [0.25, 1.0, 3.0])
async def test_a_fleet_holds_its_limit_in_every_window_while_processes_come_back_to_redis_one_by_one(
    clock: Clock, window: float
) -> None:
    redis = FakeRedis(clock)
    # two processes' breakers try Redis again soon after it is back, two only 3.5 s later
    limiters = fleet(redis, clock, [0.25, 0.25, 1.0, 1.0])
    starts = await run(limiters, clock, clock.now + 20.0, redis, down=(clock.now + 3.0, clock.now + 6.5))

    count, at = densest(starts, window)
    assert count <= BURST + RATE * window, f"{count} calls in the {window} s from {at - 100.0:.2f} s"
    assert all(limiter.returns >= 1 and limiter.local_calls > 0 for limiter in limiters)
    assert len(starts) >= 0.8 * RATE * 20.0, "the fleet still uses most of its limit"


async def test_going_local_the_share_counts_the_turns_redis_gave_this_process_still_to_come(
    clock: Clock,
) -> None:
    redis = FakeRedis(clock)
    (limiter,) = fleet(redis, clock, [1.0])
    turns = [await limiter.reserve(KEY, RATE, BURST, MAX_WAIT) for _ in range(7)]
    assert turns[-1] == pytest.approx(0.3)  # four at once, then 0.1, 0.2, 0.3 s from now
    redis.up = False

    wait = await limiter.reserve(KEY, RATE, BURST, MAX_WAIT + 1.0)

    # a fleet of one keeps the whole limit, starting empty: one interval after the 3 turns to come
    assert wait == pytest.approx(0.4)


async def test_a_process_that_never_decided_alone_keeps_its_share_during_the_handover(
    clock: Clock,
) -> None:
    redis = FakeRedis(clock)
    away, steady = fleet(redis, clock, [1.0, 1.0])
    redis.up = False
    assert await away.reserve(KEY, RATE, BURST, MAX_WAIT) is not None  # alone: its half of the limit
    redis.up = True
    clock.now += 0.6
    assert await away.reserve(KEY, RATE, BURST, MAX_WAIT) is not None  # back: pays, opens a handover

    waits = [await steady.reserve(KEY, RATE, BURST, MAX_WAIT) for _ in range(3)]

    # Redis alone would give it the burst at once; its share (5/s, burst 2) starts empty
    assert waits[0] == pytest.approx(0.2)
    assert steady.handover_calls >= 1
