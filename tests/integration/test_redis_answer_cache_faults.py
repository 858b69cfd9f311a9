"""The Redis answer cache as an unlucky operator meets it, on a real redis-server: a writer
whose clock is two minutes ahead, entries damaged in Redis, and a Redis that dies, hangs
and comes back. Answers stay right, a damaged entry is a miss, a dead or hanging Redis costs
at most one timeout per question and none once the breaker has opened, and a Redis that is
back is used again by the next question that tries."""

from __future__ import annotations

import os
import signal
import time
import uuid
from collections.abc import Iterator
from typing import Any

import anyio
import pytest

from schemarouter_integrations import CachePolicy, PlanRequest, SchemaRouter
from schemarouter_integrations.stores import AnswerEntry, RedisAnswerCache
from schemarouter_integrations.stores import _redis_answers as redis_answers
from schemarouter_integrations.stores._breaker import Breaker
from tests.servers.redis_server import RedisServer
from tests.support.fakes import FakeClock

pytestmark = [pytest.mark.integration, pytest.mark.redis, pytest.mark.anyio]

FIELDS = ["band_gap", "formula"]


class Upstream:
    def __init__(self) -> None:
        self.calls = 0

    async def __call__(self, formula: str) -> list[dict[str, Any]]:
        self.calls += 1
        return [{"formula": formula, "band_gap": 1.1}]


def app(cache: RedisAnswerCache, upstream: Upstream) -> SchemaRouter:
    router = SchemaRouter(answer_cache=cache)
    router.add_callable(upstream, name="mp", endpoint="search", read_only=True, fields=FIELDS)
    return router


def ask(formula: str = "Si", ttl: float = 300) -> PlanRequest:
    policy = CachePolicy(ttl_seconds=ttl, stale_if_error_seconds=600)
    return PlanRequest(query="band gap", arguments={"formula": formula}, cache=policy)


@pytest.fixture
def namespace() -> str:
    return f"t-{uuid.uuid4().hex[:8]}"


class SkewedTime:
    """``time`` as a host whose clock runs *ahead* seconds early would see it."""

    def __init__(self, ahead: float) -> None:
        self.ahead = ahead

    def time(self) -> float:
        return time.time() + self.ahead

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


async def test_a_writer_two_minutes_ahead_does_not_keep_an_answer_fresh_longer(
    redis_server: RedisServer, namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer_upstream, reader_upstream = Upstream(), Upstream()
    writer = app(RedisAnswerCache(redis_server.url, namespace), writer_upstream)
    reader = app(RedisAnswerCache(redis_server.url, namespace), reader_upstream)
    async with writer, reader:
        monkeypatch.setattr(redis_answers, "time", SkewedTime(120.0), raising=False)
        await writer.invoke(ask(ttl=1.0))  # written on a host whose clock is 120 s ahead
        monkeypatch.undo()
        await anyio.sleep(1.3)  # the answer's 1 s of freshness is over on every clock
        later = await reader.invoke(ask(ttl=1.0))
    assert later.cached is False
    assert reader_upstream.calls == 1


def tamper(client: Any, pattern: str, old: bytes, new: bytes) -> int:
    """Replace *old* by *new* in the stored answers (a string value or a hash's fields),
    keeping their TTL; how many values changed."""
    changed = 0
    for key in client.keys(pattern):
        ttl = client.pttl(key)
        if client.type(key) == b"string":
            value = client.get(key)
            if old in value:
                client.set(key, value.replace(old, new), px=ttl)
                changed += 1
        else:
            for name, value in client.hgetall(key).items():
                if old in value:
                    client.hset(key, name, value.replace(old, new))
                    changed += 1
    return changed


async def test_an_entry_changed_in_redis_is_a_miss_not_an_answer(
    redis_server: RedisServer, namespace: str
) -> None:
    upstream = Upstream()
    async with app(RedisAnswerCache(redis_server.url, namespace), upstream) as router:
        await router.invoke(ask())
        assert tamper(redis_server.client(), f"{namespace}:answer:*", b"1.1", b"9.9") == 1
        result = await router.invoke(ask())
    assert (result.cached, result.records) == (False, [{"formula": "Si", "band_gap": 1.1}])
    assert upstream.calls == 2


@pytest.mark.parametrize("records", ["SURPRISE", [1, 2, 3], [{"formula": "Si", "password": "x"}]])
async def test_a_stored_entry_without_the_shape_of_an_answer_is_a_miss(
    redis_server: RedisServer, namespace: str, records: Any
) -> None:
    upstream, cache = Upstream(), RedisAnswerCache(redis_server.url, namespace)
    async with app(cache, upstream) as router:
        await router.invoke(ask())
        key = next(iter(redis_server.client().keys(f"{namespace}:answer:*"))).decode()
        damaged = AnswerEntry("mp.search", records, time.time(), 300.0)
        await cache.put(key[len(cache.prefix) :], damaged, 300.0)
        result = await router.invoke(ask())
    assert (result.cached, result.records) == (False, [{"formula": "Si", "band_gap": 1.1}])
    assert upstream.calls == 2


@pytest.fixture
def stoppable(redis_server: RedisServer) -> Iterator[RedisServer]:
    """The server, resumed (SIGCONT) at the end whatever the test did to it."""
    try:
        yield redis_server
    finally:
        proc = redis_server._proc
        if proc is not None and proc.poll() is None:
            os.kill(proc.pid, signal.SIGCONT)


def pause_over(router: SchemaRouter, clock: FakeClock) -> None:
    """The breaker's pause is over (its clock is the test's: no waiting, whatever the load)."""
    clock.advance(router.inspect().cache["breaker"]["retry_in_seconds"])
    assert router.inspect().cache["breaker"]["state"] == "half-open"


async def test_a_dead_redis_costs_one_failure_per_question_then_none_and_is_used_again_when_back(
    stoppable: RedisServer, namespace: str
) -> None:
    upstream = Upstream()
    clock = FakeClock()
    cache = RedisAnswerCache(stoppable.url, namespace, timeout_seconds=0.5, breaker=Breaker(clock=clock))
    async with app(cache, upstream) as router:
        await router.invoke(ask("warm"))
        stoppable.kill()
        answered = [await router.invoke(ask(f"X{n}")) for n in range(6)]
        seen = router.inspect().cache
        assert [r.records[0]["formula"] for r in answered] == [f"X{n}" for n in range(6)]
        assert seen["errors"] <= 3, seen  # one per question until the breaker opened
        assert seen["breaker"]["state"] == "open" and seen["breaker"]["opened"] == 1, seen
        stoppable.start()
        pause_over(router, clock)
        first = await router.invoke(ask("Back"))
        again = await router.invoke(ask("Back"))
    assert (first.cached, again.cached) == (False, True)
    assert router.inspect().cache["breaker"]["state"] == "closed"


async def test_a_hanging_redis_costs_one_timeout_per_question_then_none(
    stoppable: RedisServer, namespace: str
) -> None:
    upstream = Upstream()
    clock = FakeClock()
    cache = RedisAnswerCache(stoppable.url, namespace, timeout_seconds=0.3, breaker=Breaker(clock=clock))
    async with app(cache, upstream) as router:
        await router.invoke(ask("warm"))
        assert stoppable._proc is not None
        os.kill(stoppable._proc.pid, signal.SIGSTOP)  # accepts, never answers
        answered = [await router.invoke(ask(f"H{n}")) for n in range(5)]
        seen = router.inspect().cache
        assert all(not r.cached for r in answered) and upstream.calls == 6
        assert seen["errors"] <= 3, seen
        assert seen["breaker"]["skipped"] >= 2, seen  # the last questions never waited on Redis
        os.kill(stoppable._proc.pid, signal.SIGCONT)
        pause_over(router, clock)
        first = await router.invoke(ask("Back"))
        again = await router.invoke(ask("Back"))
    assert (first.cached, again.cached) == (False, True)


async def test_a_hanging_redis_rate_limiter_costs_one_timeout_per_call_then_none(
    stoppable: RedisServer, namespace: str
) -> None:
    from schemarouter_integrations import RateLimit
    from schemarouter_integrations.stores import RedisRateLimiter

    upstream = Upstream()
    limiter = RedisRateLimiter(
        stoppable.url, namespace, timeout_seconds=0.3, breaker=Breaker(clock=FakeClock())
    )
    router = SchemaRouter(rate_limiter=limiter)
    limit = RateLimit(1000, max_wait_seconds=1)
    router.add_callable(
        upstream, name="mp", endpoint="search", read_only=True, fields=FIELDS, rate_limit=limit
    )
    async with router:
        await router.invoke(ask("warm"))
        assert stoppable._proc is not None
        os.kill(stoppable._proc.pid, signal.SIGSTOP)
        for n in range(5):
            await router.invoke(PlanRequest(query="band gap", arguments={"formula": f"R{n}"}))
        backend = router.inspect().rate_limits["backend"]
    assert upstream.calls == 6  # every call went: the provider's own limit still answers
    assert backend["errors"] <= 3 and backend["breaker"]["state"] == "open", backend
    assert backend["breaker"]["skipped"] >= 2, backend


async def test_a_write_that_redis_runs_late_is_stamped_when_it_was_sent(
    stoppable: RedisServer, namespace: str
) -> None:
    cache = RedisAnswerCache(stoppable.url, namespace, timeout_seconds=10.0)
    entry = AnswerEntry("mp.search", [{"formula": "Si", "band_gap": 0.61}], time.time(), 300.0)
    try:
        assert await cache.get("late") is None  # a read: the server's time, as every lookup does
        assert stoppable._proc is not None
        os.kill(stoppable._proc.pid, signal.SIGSTOP)  # the write waits in Redis's socket
        async with anyio.create_task_group() as group:
            group.start_soon(cache.put, "late", entry, 300.0)
            await anyio.sleep(1.5)
            os.kill(stoppable._proc.pid, signal.SIGCONT)
        found = await cache.get("late")
    finally:
        await cache.aclose()
    assert found is not None
    assert found.age(cache.now()) >= 1.4  # not 0: the answer was 1.5 s old when Redis stored it
