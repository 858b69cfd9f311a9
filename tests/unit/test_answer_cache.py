"""The answer cache: fresh hits, misses, expiry, contract changes, no-store, stale answers
through a total outage and one upstream call for concurrent identical questions."""

from __future__ import annotations

from typing import Any, TypedDict

import anyio
import pytest

from schemarouter_integrations import (
    AllRoutesUnavailableError,
    BudgetExceededError,
    CacheHints,
    CachePolicy,
    InvocationUnavailableError,
    MemoryAnswerCache,
    NonRetryableInvocationError,
    PlanRequest,
    RetryPolicy,
    RunBudget,
    SchemaRouter,
)
from tests.support.fakes import FakeClock

pytestmark = pytest.mark.anyio


class Gap(TypedDict):
    formula: str
    band_gap: float


class Upstream:
    """A scripted route: counts calls; ``down`` makes it unavailable, ``broken`` a 4xx."""

    def __init__(self, gap: float = 1.1) -> None:
        self.calls = 0
        self.gap = gap
        self.down = False
        self.broken = False
        self.hints: dict[str, Any] | None = None
        self.gate: anyio.Event | None = None
        self.started = anyio.Event()

    async def __call__(self, formula: str) -> Any:
        self.calls += 1
        self.started.set()
        if self.gate is not None:
            await self.gate.wait()
        if self.down:
            raise InvocationUnavailableError("upstream down")
        if self.broken:
            raise NonRetryableInvocationError("400 bad request", status_code=400)
        answer: list[Gap] = [{"formula": formula, "band_gap": self.gap}]
        return answer if self.hints is None else CacheHints(answer, **self.hints)


def make_router(clock: FakeClock, *routes: tuple[str, Upstream], **options: Any) -> SchemaRouter:
    router = SchemaRouter(clock=clock, answer_cache=MemoryAnswerCache(max_entries=100), **options)
    for name, upstream in routes:
        router.add_callable(
            upstream, name=name, provider=name, read_only=True, fields=FIELDS, endpoint="search"
        )
    return router


def ask(policy: CachePolicy | None = None, formula: str = "Si", **options: Any) -> PlanRequest:
    options.setdefault("fallback_scope", "cross_provider")
    return PlanRequest(query="band gap", arguments={"formula": formula}, cache=policy, **options)


FIELDS = ["band_gap", "formula"]
POLICY = CachePolicy(ttl_seconds=30, stale_if_error_seconds=600)


async def test_a_repeated_question_is_served_from_the_cache_without_a_call() -> None:
    clock, upstream = FakeClock(), Upstream()
    router = make_router(clock, ("mp", upstream))
    first = await router.invoke(ask(POLICY))
    clock.advance(5)
    second = await router.invoke(ask(POLICY))
    assert upstream.calls == 1
    assert (first.cached, second.cached) == (False, True)
    assert second.age_seconds == pytest.approx(5.0)
    assert second.records == first.records
    hit = next(e for e in second.events if e.type == "cache.hit")
    assert hit.access_path == "mp.search"
    assert router.inspect().cache is not None and router.inspect().cache["hits"] == 1


async def test_other_arguments_are_a_miss() -> None:
    clock, upstream = FakeClock(), Upstream()
    router = make_router(clock, ("mp", upstream))
    await router.invoke(ask(POLICY, "Si"))
    result = await router.invoke(ask(POLICY, "GaAs"))
    assert upstream.calls == 2 and not result.cached


async def test_an_answer_older_than_its_ttl_is_asked_again() -> None:
    clock, upstream = FakeClock(), Upstream()
    router = make_router(clock, ("mp", upstream))
    await router.invoke(ask(POLICY))
    clock.advance(30.5)
    result = await router.invoke(ask(POLICY))
    assert upstream.calls == 2 and not result.cached


async def test_a_contract_change_is_a_miss() -> None:
    clock, upstream = FakeClock(), Upstream()
    router = make_router(clock, ("mp", upstream))
    await router.invoke(ask(POLICY))
    router.add_callable(
        upstream, name="mp", provider="mp", read_only=True, fields=FIELDS, endpoint="search", description="v2"
    )
    result = await router.invoke(ask(POLICY))
    assert upstream.calls == 2 and not result.cached


async def test_no_store_keeps_an_answer_out_of_the_cache() -> None:
    clock, upstream = FakeClock(), Upstream()
    upstream.hints = {"no_store": True}
    router = make_router(clock, ("mp", upstream))
    await router.invoke(ask(POLICY))
    result = await router.invoke(ask(POLICY))
    assert upstream.calls == 2 and not result.cached
    upstream.down = True  # not even a stale answer: it was never stored
    with pytest.raises(AllRoutesUnavailableError):
        await router.invoke(ask(POLICY))


async def test_a_max_age_hint_shortens_the_ttl() -> None:
    clock, upstream = FakeClock(), Upstream()
    upstream.hints = {"max_age_seconds": 2}
    router = make_router(clock, ("mp", upstream))
    await router.invoke(ask(POLICY))
    clock.advance(1)
    assert (await router.invoke(ask(POLICY))).cached
    clock.advance(1.5)
    assert not (await router.invoke(ask(POLICY))).cached
    assert upstream.calls == 2


async def test_nothing_is_cached_without_a_policy() -> None:
    clock, upstream = FakeClock(), Upstream()
    router = make_router(clock, ("mp", upstream))
    await router.invoke(ask())
    await router.invoke(ask())
    assert upstream.calls == 2


async def test_a_route_policy_applies_when_the_request_has_none() -> None:
    clock, upstream = FakeClock(), Upstream()
    router = SchemaRouter(clock=clock, answer_cache=MemoryAnswerCache())
    router.add_callable(
        upstream, name="mp", provider="mp", read_only=True, fields=FIELDS, endpoint="search", cache=POLICY
    )
    await router.invoke(ask())
    assert (await router.invoke(ask())).cached and upstream.calls == 1


async def test_the_request_policy_wins_over_the_route_policy() -> None:
    clock, upstream = FakeClock(), Upstream()
    router = SchemaRouter(clock=clock, answer_cache=MemoryAnswerCache())
    router.add_callable(
        upstream, name="mp", provider="mp", read_only=True, fields=FIELDS, endpoint="search", cache=POLICY
    )
    await router.invoke(ask())
    off = CachePolicy(ttl_seconds=0)
    assert not (await router.invoke(ask(off))).cached and upstream.calls == 2


async def test_calls_that_are_not_read_only_are_never_cached() -> None:
    clock, upstream = FakeClock(), Upstream()
    router = SchemaRouter(clock=clock, answer_cache=MemoryAnswerCache())
    router.add_callable(upstream, name="mp", provider="mp", fields=FIELDS, endpoint="search")  # unclassified
    await router.invoke(ask(POLICY, fallback_scope="disabled", preferred_tools=["mp"]))
    await router.invoke(ask(POLICY, fallback_scope="disabled", preferred_tools=["mp"]))
    assert upstream.calls == 2


async def test_the_memory_cache_forgets_the_least_recently_used_answer() -> None:
    clock, upstream = FakeClock(), Upstream()
    router = SchemaRouter(clock=clock, answer_cache=MemoryAnswerCache(max_entries=2))
    router.add_callable(upstream, name="mp", provider="mp", read_only=True, fields=FIELDS, endpoint="search")
    for formula in ("Si", "Ge", "Si", "C"):  # Ge is the least recently used when C comes
        await router.invoke(ask(POLICY, formula))
    assert upstream.calls == 3
    assert (await router.invoke(ask(POLICY, "Si"))).cached
    assert not (await router.invoke(ask(POLICY, "Ge"))).cached


async def test_a_stale_answer_serves_a_total_outage() -> None:
    clock, mp, oqmd = FakeClock(), Upstream(1.1), Upstream(0.6)
    router = make_router(clock, ("mp", mp), ("oqmd", oqmd))
    await router.invoke(ask(POLICY, preferred_tools=["mp"]))
    clock.advance(120)
    mp.down = oqmd.down = True
    result = await router.invoke(ask(POLICY, preferred_tools=["mp"]))
    assert result.stale and result.cached
    assert result.age_seconds == pytest.approx(120.0)
    assert result.records == [{"formula": "Si", "band_gap": 1.1}]
    stale = [e for e in result.events if e.type == "cache.stale"]
    assert len(stale) == 1 and stale[0].age_seconds == pytest.approx(120.0)
    assert router.inspect().cache["stale"] == 1


async def test_routes_left_out_because_they_cool_down_count_as_unavailable() -> None:
    clock, mp, oqmd = FakeClock(), Upstream(1.1), Upstream(0.6)
    router = make_router(clock, ("mp", mp), ("oqmd", oqmd))
    await router.invoke(ask(POLICY, preferred_tools=["oqmd"]))
    clock.advance(40)  # no longer fresh
    for spec in router.tools.values():
        router.mark_access_unavailable(spec.name, spec.endpoints[0].name, seconds=300)
    result = await router.invoke(ask(POLICY, preferred_tools=["mp"]))
    assert result.stale and result.tool == "oqmd"
    assert (mp.calls, oqmd.calls) == (0, 1)


async def test_a_stale_answer_older_than_its_window_is_not_served() -> None:
    clock, mp = FakeClock(), Upstream()
    router = make_router(clock, ("mp", mp))
    await router.invoke(ask(POLICY))
    clock.advance(601)
    mp.down = True
    with pytest.raises(AllRoutesUnavailableError):
        await router.invoke(ask(POLICY))


async def test_a_non_retryable_error_is_never_answered_from_the_cache() -> None:
    clock, mp = FakeClock(), Upstream()
    router = make_router(clock, ("mp", mp))
    await router.invoke(ask(POLICY))
    clock.advance(60)
    mp.broken = True
    with pytest.raises(NonRetryableInvocationError):
        await router.invoke(ask(POLICY))


async def test_concurrent_identical_questions_make_one_upstream_call() -> None:
    clock, mp = FakeClock(), Upstream()
    mp.gate = anyio.Event()
    router = make_router(clock, ("mp", mp))
    results: list[Any] = []

    async def one() -> None:
        results.append(await router.invoke(ask(POLICY)))

    async with anyio.create_task_group() as group:
        for _ in range(100):
            group.start_soon(one)
        with anyio.fail_after(30):
            await mp.started.wait()
        await anyio.sleep(0.05)  # the others join the flight (or, later, find the stored answer)
        mp.gate.set()
    assert mp.calls == 1
    assert len(results) == 100 and all(r.records == results[0].records for r in results)
    assert sum(r.cached for r in results) == 99


async def test_concurrent_identical_questions_share_the_error() -> None:
    clock, mp = FakeClock(), Upstream()
    mp.gate, mp.broken = anyio.Event(), True
    router = make_router(clock, ("mp", mp))
    errors: list[BaseException] = []

    async def one() -> None:
        try:
            await router.invoke(ask(POLICY))
        except NonRetryableInvocationError as exc:
            errors.append(exc)

    async with anyio.create_task_group() as group:
        for _ in range(20):
            group.start_soon(one)
        with anyio.fail_after(30):
            await mp.started.wait()
        await anyio.sleep(0.2)  # every question joins the flight before it ends
        mp.gate.set()
    assert mp.calls == 1 and len(errors) == 20


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"Cache-Control": "public, max-age=60"}, (60.0, False)),
        ({"cache-control": "no-store"}, (None, True)),
        ({"Cache-Control": "no-cache"}, (0.0, False)),
        (
            {"Expires": "Wed, 02 Dec 2026 00:01:40 GMT", "Date": "Wed, 02 Dec 2026 00:00:00 GMT"},
            (100.0, False),
        ),
        ({"Cache-Control": "max-age=5", "Expires": "Wed, 02 Dec 2026 00:01:40 GMT"}, (5.0, False)),
        ({"Expires": "0"}, (0.0, False)),
        ({"Content-Type": "application/json"}, None),
    ],
)
def test_http_caching_headers_bound_the_ttl(headers: dict[str, str], expected: Any) -> None:
    from schemarouter_integrations._caching import http_cache_hints

    assert http_cache_hints(headers, now=0.0) == expected


class FailingCache(MemoryAnswerCache):
    """A cache whose reads fail (a broken custom backend)."""

    async def get(self, key: str) -> Any:
        raise ConnectionError("the cache backend is down")


async def test_a_cache_that_fails_its_reads_is_a_miss_not_a_failed_run() -> None:
    clock, upstream = FakeClock(), Upstream()
    router = SchemaRouter(clock=clock, answer_cache=FailingCache())
    router.add_callable(upstream, name="mp", provider="mp", read_only=True, fields=FIELDS, endpoint="search")
    first = await router.invoke(ask(POLICY))
    second = await router.invoke(ask(POLICY))
    assert upstream.calls == 2 and not second.cached
    assert first.records == second.records


async def test_a_cache_that_fails_its_reads_keeps_the_outage_error() -> None:
    clock, upstream = FakeClock(), Upstream()
    upstream.down = True
    router = SchemaRouter(clock=clock, answer_cache=FailingCache())
    router.add_callable(upstream, name="mp", provider="mp", read_only=True, fields=FIELDS, endpoint="search")
    with pytest.raises(AllRoutesUnavailableError):
        await router.invoke(ask(POLICY))


async def test_one_runs_exhausted_budget_is_not_shared_with_identical_questions() -> None:
    clock, mp = FakeClock(), Upstream()
    mp.gate = anyio.Event()
    mp.down = True
    router = SchemaRouter(clock=clock, sleep=clock.sleep, answer_cache=MemoryAnswerCache())
    router.add_callable(
        mp,
        name="mp",
        provider="mp",
        read_only=True,
        fields=FIELDS,
        endpoint="search",
        retry=RetryPolicy(max_attempts=3, backoff_seconds=0.0, jitter=False),
    )
    outcomes: dict[str, BaseException] = {}

    async def leader() -> None:
        try:
            await router.invoke(ask(POLICY), budget=RunBudget(max_attempts=1))
        except Exception as exc:
            outcomes["leader"] = exc

    async def follower() -> None:
        try:
            await router.invoke(ask(POLICY))
        except Exception as exc:
            outcomes["follower"] = exc

    async with anyio.create_task_group() as group:
        group.start_soon(leader)
        with anyio.fail_after(30):
            await mp.started.wait()
        group.start_soon(follower)
        await anyio.sleep(0.05)  # the follower joins the leader's flight
        mp.gate.set()
    assert isinstance(outcomes["leader"], BudgetExceededError)
    assert isinstance(outcomes["follower"], AllRoutesUnavailableError)


async def test_a_gather_serves_a_repeated_question_from_the_cache() -> None:
    clock, upstream = FakeClock(), Upstream()
    router = make_router(clock, ("mp", upstream))
    await router.gather(ask(POLICY))
    second = await router.gather(ask(POLICY))
    assert upstream.calls == 1
    assert [r.cached for r in second.results] == [True]
