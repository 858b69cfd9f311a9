"""Invocation scopes (``router.add_invocation_scope``): context managers entered around every
invoker attempt, in the invoker's own context; a failing scope never changes a run."""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from schemarouter_integrations import AllRoutesUnavailableError, PlanRequest, ToolCall
from schemarouter_integrations.events import ToolStartEvent
from tests.support.seed import seed_router

pytestmark = pytest.mark.anyio

SEED = PlanRequest(query="band gap of Si", arguments={"formula": "Si"}, fallback_scope="cross_provider")
CURRENT: contextvars.ContextVar[str | None] = contextvars.ContextVar("current", default=None)


def recording_scope(entered: list[str]) -> Any:
    @contextmanager
    def scope(start: ToolStartEvent) -> Iterator[None]:
        entered.append(start.access_path)
        token = CURRENT.set(start.access_path)
        try:
            yield
        finally:
            CURRENT.reset(token)

    return scope


async def test_the_scope_is_current_while_each_invoker_runs_and_gone_after() -> None:
    router, invokers = seed_router(down=("mp_api",))
    seen: list[tuple[str, str | None]] = []
    for name, invoker in invokers.items():
        inner = invoker.__call__

        async def spying(call: ToolCall, inner: Any = inner, name: str = name) -> Any:
            seen.append((name, CURRENT.get()))
            return await inner(call)

        router.bind(name, spying)
    entered: list[str] = []
    router.add_invocation_scope(recording_scope(entered))
    await router.invoke(SEED)
    attempts = router.tools["mp_api"].endpoints[0].retry.max_attempts
    assert entered == ["mp_api.search"] * attempts + ["mp_optimade.search"]
    assert seen == [("mp_api", "mp_api.search")] * attempts + [("mp_optimade", "mp_optimade.search")]
    assert CURRENT.get() is None


async def test_a_removed_scope_is_no_longer_entered() -> None:
    router, _ = seed_router()
    entered: list[str] = []
    remove = router.add_invocation_scope(recording_scope(entered))
    remove()
    remove()  # idempotent
    await router.invoke(SEED)
    assert entered == []


async def test_a_scope_that_fails_on_entry_or_exit_changes_nothing(caplog: pytest.LogCaptureFixture) -> None:
    router, _ = seed_router(down=("mp_api",))

    def broken_entry(start: ToolStartEvent) -> Any:
        raise RuntimeError("scope bug")

    @contextmanager
    def broken_exit(start: ToolStartEvent) -> Iterator[None]:
        yield
        raise RuntimeError("exit bug")

    router.add_invocation_scope(broken_entry)
    router.add_invocation_scope(broken_exit)
    result = await router.invoke(SEED)
    assert result.tool == "mp_optimade" and result.fallbacks == 1
    assert "failed on entry" in caplog.text and "failed on exit" in caplog.text


async def test_a_scope_cannot_swallow_the_invokers_error() -> None:
    router, _ = seed_router(down=("mp_api", "mp_optimade", "mp_python", "oqmd_api"))

    class Swallowing:
        def __enter__(self) -> None:
            return None

        def __exit__(self, *exc: object) -> bool:
            return True  # would suppress the error

    router.add_invocation_scope(lambda start: Swallowing())
    with pytest.raises(AllRoutesUnavailableError):
        await router.invoke(SEED)
