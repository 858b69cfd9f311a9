"""Hedged fallback (``HedgePolicy``): a slow read-only call and the next call of the chain, raced.

Invokers here are gated by ``anyio.Event``s, so "slow" means "has not answered yet" and no
assertion depends on how fast this machine is; ``after_seconds`` is short real time.
"""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from schemarouter_integrations import (
    HedgePolicy,
    InvocationUnavailableError,
    NonRetryableInvocationError,
    PlanRequest,
    RouterEvent,
    RunBudget,
    SchemaRouter,
)
from schemarouter_integrations._execution.throttle import HedgeThrottle
from schemarouter_integrations.errors import InvalidContractError
from schemarouter_integrations.events import ToolFallbackEvent, ToolHedgeEvent
from tests.support.hedging import AFTER, HEDGE, Gated, Heard, hedge_request, hedge_router, hedge_spec

pytestmark = pytest.mark.anyio


async def _events(router: SchemaRouter, request: PlanRequest, **kw: Any) -> list[RouterEvent]:
    return [event async for event in router.stream(request, **kw)]


def _types(events: list[RouterEvent]) -> list[str]:
    return [e.type for e in events]


def test_hedge_policy_takes_after_seconds_positionally_with_a_default_fraction() -> None:
    policy = HedgePolicy(0.25)
    assert (policy.after_seconds, policy.max_extra_fraction) == (0.25, 0.1)


BAD_POLICIES = [
    {"after_seconds": 0},
    {"after_seconds": float("nan")},
    {"after_seconds": 1, "max_extra_fraction": 1.5},
]


@pytest.mark.parametrize("bad", BAD_POLICIES)
def test_hedge_policy_refuses_values_it_cannot_honour(bad: dict[str, float]) -> None:
    with pytest.raises(InvalidContractError):
        HedgePolicy(**bad)


async def test_a_slow_read_only_call_is_hedged_and_the_hedge_answers() -> None:
    a, b = Gated(1.0), Gated(2.0, gated=False)
    router = hedge_router({"a_api": a, "b_api": b})
    events = await _events(router, hedge_request())
    assert _types(events) == [
        "run.start",
        "plan.compiled",
        "tool.start",
        "tool.hedge",
        "tool.start",
        "tool.end",
        "run.end",
    ]
    hedge = next(e for e in events if isinstance(e, ToolHedgeEvent))
    assert (hedge.from_tool, hedge.to_tool, hedge.after_seconds) == ("a_api", "b_api", AFTER)
    result = events[-1].result  # type: ignore[attr-defined]
    assert (result.tool, result.records) == ("b_api", [{"band_gap": 2.0}])
    assert result.route == ["a_api.search", "b_api.search"]
    assert a.calls == 1 and a.cancelled == 0  # the slower call is still running
    a.gate.set()
    await router.aclose()


async def test_the_outrun_call_finishes_after_the_run_and_its_failure_cools_its_route() -> None:
    a = Gated(error=InvocationUnavailableError("upstream timed out"))
    router = hedge_router({"a_api": a, "b_api": Gated(2.0, gated=False)})
    heard = Heard()
    router.subscribe(heard)
    result = await router.invoke(hedge_request())
    assert result.tool == "b_api"
    assert router.plan(hedge_request()).primary.tool == "a_api"  # type: ignore[union-attr]
    a.gate.set()
    await heard.wait_for("route.unavailable")
    after_run = heard.events[heard.types().index("run.end") + 1 :]
    assert _types(after_run) == ["tool.error", "route.unavailable"]
    assert {e.run_id for e in after_run} == {result.events[0].run_id}
    assert router.plan(hedge_request()).primary.tool == "b_api"  # type: ignore[union-attr]


async def test_a_call_that_answers_within_after_seconds_is_not_hedged() -> None:
    b = Gated(2.0, gated=False)
    router = hedge_router({"a_api": Gated(1.0, gated=False), "b_api": b})
    events = await _events(router, hedge_request())
    assert "tool.hedge" not in _types(events)
    assert events[-1].result.tool == "a_api"  # type: ignore[attr-defined]
    assert b.calls == 0


async def test_without_a_hedge_policy_a_slow_call_is_waited_for() -> None:
    a, b = Gated(1.0), Gated(2.0, gated=False)
    router = hedge_router({"a_api": a, "b_api": b})
    async with anyio.create_task_group() as tg:

        async def run() -> None:
            result = await router.invoke(hedge_request(hedge=None))
            assert result.tool == "a_api"

        tg.start_soon(run)
        await anyio.sleep(AFTER * 5)
        assert b.calls == 0
        a.gate.set()


async def test_the_hedged_from_call_answering_first_cancels_the_hedge() -> None:
    a, b = Gated(1.0), Gated(2.0)
    router = hedge_router({"a_api": a, "b_api": b})
    unavailable: list[RouterEvent] = []
    router.subscribe(lambda e: unavailable.append(e) if e.type == "route.unavailable" else None)

    async def open_a_once_b_runs() -> None:
        await b.started.wait()
        a.gate.set()

    async with anyio.create_task_group() as tg:
        tg.start_soon(open_a_once_b_runs)
        events = await _events(router, hedge_request())
    assert events[-1].result.tool == "a_api"  # type: ignore[attr-defined]
    assert b.cancelled == 1
    assert unavailable == []  # cancelling the hedge marks nothing


async def test_the_hedged_from_call_failing_is_a_fallback_to_the_running_hedge() -> None:
    a, b = Gated(error=InvocationUnavailableError("down")), Gated(2.0)
    router = hedge_router({"a_api": a, "b_api": b})

    async def fail_a_then_answer_b() -> None:
        await b.started.wait()
        a.gate.set()
        await anyio.sleep(0.01)
        b.gate.set()

    async with anyio.create_task_group() as tg:
        tg.start_soon(fail_a_then_answer_b)
        events = await _events(router, hedge_request())
    kinds = _types(events)
    assert kinds.index("tool.hedge") < kinds.index("tool.error") < kinds.index("route.unavailable")
    assert kinds.index("route.unavailable") < kinds.index("tool.fallback") < kinds.index("tool.end")
    fallback = next(e for e in events if isinstance(e, ToolFallbackEvent))
    assert (fallback.from_tool, fallback.to_tool, fallback.reason) == ("a_api", "b_api", "unavailable")
    assert events[-1].result.tool == "b_api"  # type: ignore[attr-defined]


async def test_when_both_hedged_calls_are_unavailable_the_chain_goes_on() -> None:
    a = Gated(error=InvocationUnavailableError("down"))
    b = Gated(error=InvocationUnavailableError("down too"), gated=False)
    c = Gated(3.0, gated=False)
    router = hedge_router({"a_api": a, "b_api": b, "c_api": c})

    async def fail_a_later() -> None:
        await b.started.wait()
        await anyio.sleep(0.01)
        a.gate.set()

    async with anyio.create_task_group() as tg:
        tg.start_soon(fail_a_later)
        events = await _events(router, hedge_request())
    result = events[-1].result  # type: ignore[attr-defined]
    assert result.tool == "c_api"
    moves = [(e.from_tool, e.to_tool) for e in events if isinstance(e, ToolFallbackEvent)]
    assert moves == [("a_api", "b_api"), ("b_api", "c_api")]


async def test_an_error_of_the_hedged_from_call_that_ends_runs_ends_the_hedged_run() -> None:
    a, b = Gated(error=NonRetryableInvocationError("HTTP 404")), Gated(2.0)
    router = hedge_router({"a_api": a, "b_api": b})

    async def fail_a_once_b_runs() -> None:
        await b.started.wait()
        a.gate.set()

    async with anyio.create_task_group() as tg:
        tg.start_soon(fail_a_once_b_runs)
        with pytest.raises(NonRetryableInvocationError):
            await router.invoke(hedge_request())
    assert b.cancelled == 1


async def test_an_error_of_the_hedge_waits_for_the_hedged_from_call_which_may_still_answer() -> None:
    a, b = Gated(1.0), Gated(error=NonRetryableInvocationError("HTTP 400"), gated=False)
    router = hedge_router({"a_api": a, "b_api": b})

    async def answer_a_after_b_failed() -> None:
        await b.started.wait()
        await anyio.sleep(0.01)
        a.gate.set()

    async with anyio.create_task_group() as tg:
        tg.start_soon(answer_a_after_b_failed)
        result = await router.invoke(hedge_request())
    assert result.tool == "a_api"


async def test_an_error_of_the_hedge_ends_the_run_once_the_hedged_from_call_is_unavailable() -> None:
    a = Gated(error=InvocationUnavailableError("down"))
    b = Gated(error=NonRetryableInvocationError("HTTP 400"), gated=False)
    router = hedge_router({"a_api": a, "b_api": b})

    async def fail_a_after_b() -> None:
        await b.started.wait()
        await anyio.sleep(0.01)
        a.gate.set()

    async with anyio.create_task_group() as tg:
        tg.start_soon(fail_a_after_b)
        with pytest.raises(NonRetryableInvocationError, match="HTTP 400"):
            await router.invoke(hedge_request())


async def test_a_hedge_is_charged_to_the_budget_and_never_passes_it() -> None:
    a, b = Gated(1.0), Gated(2.0, gated=False)
    router = hedge_router({"a_api": a, "b_api": b})

    async def answer_a_later() -> None:
        await anyio.sleep(AFTER * 5)
        a.gate.set()

    async with anyio.create_task_group() as tg:
        tg.start_soon(answer_a_later)
        events = await _events(router, hedge_request(), budget=RunBudget(max_tool_calls=1))
    assert "tool.hedge" not in _types(events)
    assert events[-1].result.tool == "a_api"  # type: ignore[attr-defined]
    assert b.calls == 0


async def test_a_call_that_is_not_read_only_is_never_hedged() -> None:
    a, b = Gated(1.0), Gated(2.0, gated=False)
    router = SchemaRouter()
    router.register(hedge_spec("a_api", "mp", read_only=None), a)
    router.register(hedge_spec("b_api", "mp"), b)
    request = PlanRequest("band gap", preferred_tools=["a_api"], hedge=HEDGE)  # fallback disabled

    async def answer_a_later() -> None:
        await anyio.sleep(AFTER * 5)
        a.gate.set()

    async with anyio.create_task_group() as tg:
        tg.start_soon(answer_a_later)
        events = await _events(router, request)
    assert events[-1].result.tool == "a_api"  # type: ignore[attr-defined]
    assert "tool.hedge" not in _types(events) and b.calls == 0


async def test_cancelling_a_hedged_run_cancels_both_calls_and_marks_nothing() -> None:
    a, b = Gated(1.0), Gated(2.0)
    router = hedge_router({"a_api": a, "b_api": b})
    with anyio.move_on_after(AFTER * 5):
        await router.invoke(hedge_request())
    await anyio.sleep(0.01)
    assert (a.cancelled, b.cancelled) == (1, 1)
    assert router.inspect().execution.cooldowns == {}


async def test_the_throttle_stops_hedges_that_prove_extra() -> None:
    """A slow but healthy primary: every hedge is an extra call, and the bucket runs dry."""
    runs = 30
    a = Gated(1.0)
    router = hedge_router({"a_api": a, "b_api": Gated(2.0, gated=False)})
    hedged = 0

    async def answer_later(gate: anyio.Event) -> None:
        await anyio.sleep(AFTER * 3)
        gate.set()  # an outrun call answers after all: its hedge was extra

    async with anyio.create_task_group() as tg:
        for _ in range(runs):
            a.gate = anyio.Event()
            tg.start_soon(answer_later, a.gate)
            events = await _events(router, hedge_request())
            hedged += "tool.hedge" in _types(events)
            await a.gate.wait()
            await anyio.sleep(0.002)
    assert 0 < hedged < runs
    assert hedged <= HEDGE.max_extra_fraction * runs + HedgeThrottle.CAPACITY / 2


async def test_a_hedge_that_proved_needed_gets_its_token_back() -> None:
    """The primary keeps failing after its hedge answered: no hedge was extra, none is refused."""
    runs = 12
    a = Gated(error=InvocationUnavailableError("down"))
    router = hedge_router({"a_api": a, "b_api": Gated(2.0, gated=False)})
    heard = Heard()
    router.subscribe(heard)
    hedged = 0
    for _ in range(runs):
        a.gate = anyio.Event()
        events = await _events(router, hedge_request())
        hedged += "tool.hedge" in _types(events)
        a.gate.set()
        await heard.wait_for("route.unavailable", hedged)
        router.mark_access_available("a_api", "search")  # keep a_api the primary
    assert hedged == runs


def test_the_token_bucket_spends_earns_and_refunds() -> None:
    bucket = HedgeThrottle(0.1)
    taken = [bucket.take() for _ in range(7)]
    assert taken == [True] * 5 + [False] * 2
    for _ in range(9):
        bucket.call_started()
    assert not bucket.take()  # 5.9 tokens: one more would leave fewer than half
    bucket.call_started()
    assert bucket.take()
    bucket.refund()
    assert bucket.take() and not bucket.take()


async def test_a_call_refused_a_hedge_is_hedged_at_once_when_its_route_cools_down_elsewhere() -> None:
    """No token left, but another run (or a peer through Redis) marks the route: the hedge is
    needed, so it starts without a token."""
    a = Gated(1.0)
    router = hedge_router({"a_api": a, "b_api": Gated(2.0, gated=False)})
    bucket = router._executor.hedger.throttle(HEDGE)
    bucket.tokens = 0.0

    async def mark_a_once_watched() -> None:
        await a.started.wait()
        await anyio.sleep(AFTER * 2)
        router.mark_access_unavailable("a_api", "search", reason="a peer saw it fail")

    async with anyio.create_task_group() as tg:
        tg.start_soon(mark_a_once_watched)
        events = await _events(router, hedge_request())
    assert "tool.hedge" in _types(events)
    assert events[-1].result.tool == "b_api"  # type: ignore[attr-defined]
    assert bucket.tokens == pytest.approx(HEDGE.max_extra_fraction)  # earned by the call, none spent
    a.gate.set()
    await router.aclose()


async def test_an_outrun_call_running_long_presumes_its_hedge_needed_until_it_answers() -> None:
    """Tokens of hedges whose outrun call is still running after 4 x after_seconds come back
    early, so a long timeout does not keep the bucket empty; an answer takes the token again."""
    a = Gated(1.0)
    router = hedge_router({"a_api": a, "b_api": Gated(2.0, gated=False)})
    bucket = router._executor.hedger.throttle(HEDGE)
    bucket.tokens = 6.0 - HEDGE.max_extra_fraction  # one hedge, then none without a refund
    first = await _events(router, hedge_request())
    assert "tool.hedge" in _types(first)
    await anyio.sleep(AFTER * 5)  # the outrun call is still running: presumed needed
    with anyio.fail_after(5):  # unhedged, the run would wait for the gated call
        second = await _events(router, hedge_request())
    assert "tool.hedge" in _types(second)
    tokens_before_answers = bucket.tokens
    a.gate.set()  # both outrun calls answer: the first (presumed) hedge was extra after all
    await anyio.sleep(0.01)
    assert bucket.tokens == pytest.approx(tokens_before_answers - 1)
    await router.aclose()
