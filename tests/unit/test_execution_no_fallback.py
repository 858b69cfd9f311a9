"""Each case where the spec says automatic fallback does not occur ends the run at once."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from schemarouter_integrations import (
    NonRetryableInvocationError,
    PolicyViolationError,
    RetryPolicy,
    SchemaRouter,
    SchemaValidationError,
    StaleFingerprintError,
)
from schemarouter_integrations.events import RouterEvent, RunErrorEvent, ToolErrorEvent
from tests.support.execution import (
    CHAIN,
    GatedInvoker,
    call_for,
    collect,
    fake_router,
    hand_plan,
    rebuilt,
    types,
    with_call,
)
from tests.support.seed import mp_api, mp_python

pytestmark = pytest.mark.anyio

BAND_GAP_RESPONSE = {
    "type": "object",
    "required": ["data"],
    "properties": {
        "data": {
            "type": "array",
            "items": {"type": "object", "properties": {"band_gap": {"type": "number"}}},
        }
    },
}


def nothing_cooled(router: SchemaRouter) -> bool:
    return router.availability_store.active() == {}


def calls_made(invokers: dict[str, Any]) -> dict[str, int]:
    return {name: len(invoker.calls) for name, invoker in invokers.items()}


async def test_input_schema_violation_stops_before_any_invoker_sees_the_arguments() -> None:
    router, invokers, _ = fake_router()
    plan = with_call(router.plan_executable(CHAIN), 0, arguments={"formula": 42})

    events = await collect(router, plan)

    assert types(events) == ["run.start", "plan.compiled", "run.error"]
    with pytest.raises(SchemaValidationError, match="formula"):
        await router.invoke(plan)
    assert sum(calls_made(invokers).values()) == 0


async def test_fallback_with_arguments_that_break_its_schema_is_pruned() -> None:
    router, invokers, _ = fake_router(down=("mp_api",))
    plan = with_call(router.plan_executable(CHAIN), 1, arguments={"formula": "Si", "limit": 0})

    result = await router.invoke(plan)

    assert [e.type for e in result.events if e.type == "route.pruned"] == ["route.pruned"]
    assert result.route == ["mp_api.search", "mp_python.search"]
    assert invokers["mp_optimade"].calls == []


async def test_fallback_arguments_are_checked_on_their_own_even_when_equal_to_the_primarys() -> None:
    router, invokers, _ = fake_router(down=("mp_api",))
    plan = with_call(router.plan_executable(CHAIN), 0, arguments={"formula": "Si", "limit": 1})
    plan = with_call(plan, 1, arguments={"formula": "Si", "limit": True})  # == the primary's, not valid

    result = await router.invoke(plan)

    assert result.route == ["mp_api.search", "mp_python.search"]
    assert invokers["mp_optimade"].calls == []


async def wrong_shape(call: Any) -> Any:
    return {"data": "not a list"}


async def test_output_schema_violation_ends_the_run_without_fallback_or_cooldown() -> None:
    router, invokers, _ = fake_router()
    router.register(rebuilt(mp_api(), output_schema=BAND_GAP_RESPONSE), wrong_shape)

    events = await collect(router, CHAIN)

    assert types(events) == ["run.start", "plan.compiled", "tool.start", "tool.error", "run.error"]
    error = events[-1]
    assert isinstance(error, RunErrorEvent) and error.error_type == "SchemaValidationError"
    assert "data: 'not a list' is not of type 'array'" in error.error
    assert invokers["mp_optimade"].calls == []
    assert nothing_cooled(router)


async def test_output_that_fails_validation_is_recorded_as_a_failed_attempt() -> None:
    router, _, _ = fake_router()
    router.register(rebuilt(mp_api(), output_schema=BAND_GAP_RESPONSE), wrong_shape)

    events = await collect(router, CHAIN)

    error = events[-1]
    assert isinstance(error, RunErrorEvent)
    assert [(a.access_path, a.ok, a.error_type) for a in error.attempts] == [
        ("mp_api.search", False, "SchemaValidationError")
    ]


async def test_response_without_records_at_records_path_is_a_validation_error() -> None:
    router, invokers, _ = fake_router()

    async def no_data(call: Any) -> Any:
        return {"results": []}

    router.bind("mp_api", no_data)

    with pytest.raises(SchemaValidationError, match="no records at 'data'"):
        await router.invoke(CHAIN)
    assert invokers["mp_optimade"].calls == []
    assert nothing_cooled(router)


@pytest.mark.parametrize("read_only", [False, None], ids=["mutating", "unclassified"])
async def test_non_read_only_call_invalidates_the_whole_automatic_chain(read_only: bool | None) -> None:
    router, invokers, _ = fake_router(down=("mp_api",))
    router.register(rebuilt(mp_python(), read_only=read_only), invokers["mp_python"])
    plan = hand_plan(
        call_for(router, "mp_api"),
        call_for(router, "mp_optimade", scope="same_provider"),
        call_for(router, "mp_python", scope="same_provider"),
    )

    events = await collect(router, plan)

    assert types(events) == ["run.start", "plan.compiled", "run.error"]
    with pytest.raises(PolicyViolationError, match=r"mp_python\.search is not read_only=True"):
        await router.invoke(plan)
    assert sum(calls_made(invokers).values()) == 0


async def test_call_claiming_read_only_against_a_mutating_contract_is_a_policy_violation() -> None:
    router, invokers, _ = fake_router()
    plan = router.plan_executable(CHAIN)
    router.register(rebuilt(mp_python(), read_only=False), invokers["mp_python"])

    with pytest.raises(PolicyViolationError):
        await router.invoke(plan)
    assert sum(calls_made(invokers).values()) == 0


async def test_primary_with_changed_contract_fails_closed_without_fallback() -> None:
    router, invokers, _ = fake_router()
    plan = router.plan_executable(CHAIN)
    router.register(rebuilt(mp_api(), description="v2"), invokers["mp_api"])

    with pytest.raises(StaleFingerprintError, match="contract of 'mp_api' changed"):
        await router.invoke(plan)
    assert sum(calls_made(invokers).values()) == 0
    assert nothing_cooled(router)


async def test_primary_with_stale_binding_fails_closed_without_fallback() -> None:
    router, invokers, _ = fake_router()
    router.register(rebuilt(mp_api(), description="v2"))  # the invoker stays on the old contract
    plan = router.plan(CHAIN)

    with pytest.raises(StaleFingerprintError, match="bound to an older contract"):
        await router.invoke(plan)
    assert sum(calls_made(invokers).values()) == 0


@pytest.mark.parametrize(
    "error",
    [
        NonRetryableInvocationError("malformed body"),
        NonRetryableInvocationError("404 Not Found: no such material", status_code=404),
    ],
    ids=["deterministic", "http-4xx"],
)
async def test_non_retryable_error_ends_the_run_without_retry_fallback_or_cooldown(
    error: NonRetryableInvocationError,
) -> None:
    router, invokers, _ = fake_router(retry=RetryPolicy(max_attempts=3))
    invokers["mp_api"].fail_with = error

    with pytest.raises(NonRetryableInvocationError) as caught:
        await router.invoke(CHAIN)

    assert caught.value is error
    assert calls_made(invokers) == {"mp_api": 1, "mp_optimade": 0, "mp_python": 0, "oqmd_api": 0}
    assert nothing_cooled(router)


async def test_any_other_invoker_exception_ends_the_run_as_non_retryable() -> None:
    router, invokers, _ = fake_router(retry=RetryPolicy(max_attempts=3))
    invokers["mp_api"].fail_with = KeyError("band_gap")

    events = await collect(router, CHAIN)

    assert types(events) == ["run.start", "plan.compiled", "tool.start", "tool.error", "run.error"]
    tool_error = events[3]
    assert isinstance(tool_error, ToolErrorEvent) and tool_error.error_type == "KeyError"
    assert not tool_error.retryable
    with pytest.raises(NonRetryableInvocationError) as caught:
        await router.invoke(CHAIN)
    assert isinstance(caught.value.__cause__, KeyError)
    assert invokers["mp_optimade"].calls == []
    assert nothing_cooled(router)


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_cancelled_run_marks_nothing_unavailable_and_does_not_fall_back() -> None:
    router, invokers, _ = fake_router()
    gated = GatedInvoker("mp_api")
    router.bind("mp_api", gated)
    seen: list[RouterEvent] = []
    router.subscribe(seen.append)

    async with anyio.create_task_group() as tg:
        scope = anyio.CancelScope()

        async def run() -> None:
            with scope:
                await router.invoke(CHAIN)

        tg.start_soon(run)
        await gated.started.wait()
        scope.cancel()

    assert scope.cancelled_caught
    assert not gated.finished
    assert nothing_cooled(router)
    assert invokers["mp_optimade"].calls == []
    assert types(seen) == ["run.start", "plan.compiled", "tool.start", "run.error"]
    assert seen[-1].error_type == "Cancelled"  # type: ignore[attr-defined]
