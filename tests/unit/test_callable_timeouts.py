"""A Python callable is bounded like an HTTP route: it times out as unavailable, and a
cancelled run returns at once, abandoning a sync callable's thread."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import anyio
import pytest

from schemarouter_integrations import (
    InvocationUnavailableError,
    PlanRequest,
    RegistrationError,
    RouterEvent,
    SchemaRouter,
)

pytestmark = pytest.mark.anyio

REQUEST = PlanRequest(
    query="band gap", arguments={"formula": "Si"}, preferred_tools=["stuck"], fallback_scope="same_provider"
)


@pytest.fixture
def gate() -> Iterator[threading.Event]:
    """Holds a stuck callable until the test ends (its abandoned thread then finishes)."""
    event = threading.Event()
    yield event
    event.set()


def stuck_callable(gate: threading.Event, started: threading.Event | None = None) -> Any:
    def stuck(formula: str) -> dict[str, Any]:
        if started is not None:
            started.set()
        gate.wait(30)
        return {"formula": formula, "band_gap": 9.9}

    return stuck


def healthy(formula: str) -> dict[str, Any]:
    return {"formula": formula, "band_gap": 0.61}


def router_with(gate: threading.Event, **options: Any) -> SchemaRouter:
    router = SchemaRouter()
    fields = ["formula", "band_gap"]
    router.add_callable(
        stuck_callable(gate), name="stuck", provider="p", read_only=True, fields=fields, **options
    )
    router.add_callable(healthy, name="healthy", provider="p", read_only=True, fields=fields)
    return router


async def test_a_sync_callable_that_overruns_its_timeout_is_unavailable_and_falls_back(
    gate: threading.Event,
) -> None:
    router = router_with(gate, timeout_seconds=0.05)

    result = await router.invoke(REQUEST)

    assert result.tool == "healthy"
    errors = [e for e in result.events if e.type == "tool.error"]
    assert [(e.tool, e.error_type) for e in errors] == [("stuck", "InvocationUnavailableError")]  # type: ignore[attr-defined]
    assert "did not answer within 0.05s" in errors[0].error  # type: ignore[attr-defined]
    assert router.inspect().execution.unavailable_access_paths == ["stuck.stuck"]


async def test_an_async_callable_that_overruns_its_timeout_is_unavailable() -> None:
    async def slow(formula: str) -> dict[str, Any]:
        await anyio.sleep(30)
        return {"formula": formula}

    router = SchemaRouter()
    router.add_callable(
        slow, name="slow", provider="p", read_only=True, fields=["formula"], timeout_seconds=0.05
    )
    with pytest.raises(InvocationUnavailableError, match="did not answer"):
        await router.invoke(PlanRequest(query="formula", arguments={"formula": "Si"}))


async def test_cancelling_a_run_returns_at_once_and_sinks_hear_run_error(gate: threading.Event) -> None:
    started = threading.Event()
    router = SchemaRouter()
    router.add_callable(
        stuck_callable(gate, started), name="stuck", provider="p", read_only=True, fields=["formula"]
    )
    heard: list[RouterEvent] = []
    router.subscribe(heard.append)

    async with anyio.create_task_group() as group:

        async def run() -> None:
            await router.invoke(PlanRequest(query="formula", arguments={"formula": "Si"}))

        group.start_soon(run)
        while not started.is_set():  # noqa: ASYNC110 - the callable's thread sets it
            await anyio.sleep(0.005)
        group.cancel_scope.cancel()

    assert not gate.is_set(), "the run waited for the thread instead of abandoning it"
    assert heard[-1].type == "run.error"
    assert [e.type for e in heard].count("run.end") == 0


@pytest.mark.parametrize("timeout", [0, -1, float("inf"), float("nan"), "5"])
def test_a_timeout_that_is_not_a_positive_finite_number_is_refused(timeout: Any) -> None:
    with pytest.raises(RegistrationError, match="timeout_seconds"):
        SchemaRouter().add_callable(healthy, name="h", read_only=True, timeout_seconds=timeout)
