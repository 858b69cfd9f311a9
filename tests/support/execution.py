"""Execution helpers: a seeded router on fake time, hand-built calls and plans, gated invokers."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import anyio

from schemarouter_integrations import (
    Plan,
    PlanRequest,
    RouterEvent,
    RunBudget,
    SchemaRouter,
    ToolCall,
    ToolSpec,
)
from tests.support.fakes import FakeClock
from tests.support.seed import RECORDS, FakeInvoker, seed_router, unavailable

DOWN = ("mp_api", "mp_optimade", "mp_python")

CHAIN = PlanRequest(
    query="Si band gap",
    arguments={"formula": "Si"},
    preferred_tools=("mp_api",),
    fallback_scope="cross_provider",
    max_fallbacks=3,
)


def fake_router(
    *, down: tuple[str, ...] = (), **endpoint_kw: Any
) -> tuple[SchemaRouter, dict[str, FakeInvoker], FakeClock]:
    """The seed's four tools on a fake clock with an instant sleep and a seeded rng."""
    clock = FakeClock()
    router = SchemaRouter(clock=clock, sleep=clock.sleep, rng=random.Random(0))
    router, invokers = seed_router(router, down=down, **endpoint_kw)
    return router, invokers, clock


async def collect(
    router: SchemaRouter, source: PlanRequest | Plan | str, *, budget: RunBudget | None = None
) -> list[RouterEvent]:
    """Every event of one streamed run."""
    return [event async for event in router.stream(source, budget=budget)]


def types(events: Sequence[RouterEvent]) -> list[str]:
    return [event.type for event in events]


def rebuilt(spec: ToolSpec, **endpoint_updates: Any) -> ToolSpec:
    """*spec* with its (only) endpoint changed: a new contract with a new fingerprint."""
    data = spec.model_dump()
    data["endpoints"] = [{**e, **endpoint_updates} for e in data["endpoints"]]
    return ToolSpec.model_validate(data)


def with_call(plan: Plan, index: int, **updates: Any) -> Plan:
    """*plan* with call *index* of its chain (0 = primary) changed by hand."""
    calls = list(plan.calls)
    calls[index] = calls[index].model_copy(update=updates)
    return plan.model_copy(update={"primary": calls[0], "fallbacks": calls[1:]})


def call_for(router: SchemaRouter, tool: str, *, scope: str = "primary", **updates: Any) -> ToolCall:
    """A ToolCall built by hand against the registry's current contract of *tool*."""
    spec = router.tools[tool]
    endpoint = spec.endpoints[0]
    values: dict[str, Any] = {
        "tool": tool,
        "endpoint": endpoint.name,
        "provider": spec.provider,
        "access_mode": spec.access_mode,
        "tool_fingerprint": spec.fingerprint,
        "endpoint_fingerprint": endpoint.fingerprint,
        "arguments": {"formula": "Si"},
        "selected_fields": ("band_gap",),
        "server_projection": {},
        "scope": scope,
        "read_only": endpoint.read_only,
        "evidence": {},
        "explanation": "built by hand",
    }
    values.update(updates)
    return ToolCall(**values)


def hand_plan(primary: ToolCall, *fallbacks: ToolCall) -> Plan:
    return Plan(request=CHAIN, need=("band_gap",), primary=primary, fallbacks=fallbacks)


class GatedInvoker:
    """Waits for ``gate`` before answering; ``started`` is set once it was called."""

    def __init__(self, tool: str) -> None:
        self.tool = tool
        self.started = anyio.Event()
        self.gate = anyio.Event()
        self.finished = False
        self.calls: list[ToolCall] = []

    async def __call__(self, call: ToolCall) -> Any:
        self.calls.append(call)
        self.started.set()
        await self.gate.wait()
        self.finished = True
        return RECORDS[self.tool]


def losing_mp_optimade_while_mp_api_runs() -> tuple[SchemaRouter, dict[str, FakeInvoker]]:
    """mp_api fails; while it runs, the next route of the chain (mp_optimade) is unbound."""
    router, invokers, _ = fake_router()

    async def primary(call: ToolCall) -> Any:
        router.unbind("mp_optimade")
        raise unavailable("mp_api is down")

    router.bind("mp_api", primary)
    return router, invokers


def call_of_first_endpoint(spec: ToolSpec, arguments: dict[str, Any]) -> ToolCall:
    """A primary call of *spec*'s first endpoint with *arguments*, nothing selected."""
    ep = spec.endpoints[0]
    return ToolCall(
        tool=spec.name,
        endpoint=ep.name,
        provider=spec.provider,
        access_mode=spec.access_mode,
        tool_fingerprint=spec.fingerprint,
        endpoint_fingerprint=ep.fingerprint,
        arguments=arguments,
        selected_fields=(),
        server_projection={},
        scope="primary",
        read_only=ep.read_only,
        evidence={},
        explanation="",
    )
