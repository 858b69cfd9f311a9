"""Hedging helpers: gated invokers (slow = "has not answered yet"), a two-route router, a sink."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import anyio

from schemarouter_integrations import (
    EndpointSpec,
    FieldSpec,
    HedgePolicy,
    PlanRequest,
    RetryPolicy,
    RouterEvent,
    SchemaRouter,
    ToolCall,
    ToolSpec,
)
from tests.servers.fault_server import FaultServer, Hang, Reply

AFTER = 0.02
HEDGE = HedgePolicy(AFTER)
INPUT = {"type": "object", "properties": {}, "additionalProperties": False}


def hedge_spec(name: str, provider: str, *, read_only: bool | None = True) -> ToolSpec:
    endpoint = EndpointSpec(
        name="search",
        read_only=read_only,
        input_schema=INPUT,
        records_path=["data"],
        fields=[FieldSpec(name="band_gap", path=["band_gap"])],
    )
    return ToolSpec(name=name, provider=provider, access_mode="openapi", endpoints=[endpoint])


class Gated:
    """An invoker that answers (or raises) only once its gate opens; counts its calls."""

    def __init__(self, value: float | None = None, error: Exception | None = None, *, gated: bool = True):
        self.value, self.error = value, error
        self.gate = anyio.Event()
        if not gated:
            self.gate.set()
        self.calls = 0
        self.cancelled = 0
        self.started = anyio.Event()

    async def __call__(self, call: ToolCall) -> Any:
        self.calls += 1
        self.started.set()
        try:
            await self.gate.wait()
        except anyio.get_cancelled_exc_class():
            self.cancelled += 1
            raise
        if self.error is not None:
            raise self.error
        return {"data": [{"band_gap": self.value}]}


def hedge_router(invokers: dict[str, Callable[[ToolCall], Awaitable[Any]]], **kw: Any) -> SchemaRouter:
    router = SchemaRouter(**kw)
    for name, invoker in invokers.items():
        router.register(hedge_spec(name, "mp"), invoker)
    return router


def hedge_request(hedge: HedgePolicy | None = HEDGE, **kw: Any) -> PlanRequest:
    scope = "same_provider"
    return PlanRequest("band gap", preferred_tools=["a_api"], fallback_scope=scope, hedge=hedge, **kw)


class Heard:
    """A sink that keeps every event and wakes a waiter when a given type arrives."""

    def __init__(self) -> None:
        self.events: list[RouterEvent] = []
        self._arrived: dict[str, anyio.Event] = {}

    def __call__(self, event: RouterEvent) -> None:
        self.events.append(event)
        self._arrived.setdefault(event.type, anyio.Event()).set()

    def types(self) -> list[str]:
        return [e.type for e in self.events]

    async def wait_for(self, kind: str, count: int = 1) -> None:
        with anyio.fail_after(5):
            while self.types().count(kind) < count:
                self._arrived[kind] = anyio.Event()
                await self._arrived[kind].wait()


MIRROR_RECORDS = [{"band_gap": 1.12}]


async def add_hanging_and_mirror(
    router: SchemaRouter,
    server: FaultServer,
    slug: str,
    *,
    names: tuple[str, str] = ("hanging", "mirror"),
    provider: str = "p",
    timeout_seconds: float = 0.5,
) -> None:
    """Register two OpenAPI routes of one provider on *server* (``tests/servers/fault_server.py``):
    the first hangs (accepts, never answers), the second answers ``MIRROR_RECORDS``."""
    mirror = Reply(200, {"content-type": "application/json"}, json.dumps({"data": MIRROR_RECORDS}).encode())
    for name, fault in zip(names, (Hang(), mirror), strict=True):
        await router.add_url(
            server.route(f"{slug}-{name}", fault),
            kind="openapi",
            name=name,
            provider=provider,
            retry=RetryPolicy(max_attempts=1),
            timeout_seconds=timeout_seconds,
        )
