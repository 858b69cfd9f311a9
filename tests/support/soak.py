"""The soak: many runs with random faults over 20 routes while the health monitor probes.

Ten HTTP routes (one OpenAPI document on a real loopback server whose answers fail at
random: 503, 429, 400, 500, too slow for the client timeout) and ten Python callables (async
and sync, failing at random), over four providers. Runs come in bursts of concurrent
questions with random scopes and preferred tools; cooldowns are short so that routes go
down and come back many times. :func:`soak` returns what a person wants to know afterwards:
runs and outcomes, faults served, duration, peak and retained memory, leaked tasks, and the
cooldowns still running once the traffic stopped and the longest cooldown passed.

``python -m tests.support.soak --runs 10000`` (``make soak``) runs the long one; the test
suite runs a short one (``tests/integration/test_soak.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import threading
import time
import tracemalloc
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import anyio
import anyio.lowlevel
from fastapi import FastAPI, Query
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from schemarouter_integrations import (
    CooldownPolicy,
    FieldSpec,
    InvocationUnavailableError,
    NonRetryableInvocationError,
    PlanRequest,
    RetryPolicy,
    SchemaRouter,
    SchemaRouterError,
    ToolResult,
)
from tests.servers.uvicorn_thread import UvicornThread

PROVIDERS = ["materials_project", "oqmd", "alexandria", "nomad"]
COOLDOWN = CooldownPolicy(base_seconds=0.05, max_seconds=0.3)
HTTP_FAULTS = [("ok", 70), ("503", 10), ("429", 5), ("400", 4), ("500", 6), ("slow", 1)]
CALLABLE_FAULTS = [("ok", 72), ("unavailable", 18), ("refuse", 5), ("slow", 5)]
CLIENT_TIMEOUT = 0.25


def _weighted(rng: random.Random, table: list[tuple[str, int]]) -> str:
    return rng.choices([name for name, _ in table], weights=[w for _, w in table])[0]


class Material(BaseModel):
    id: str
    formula: str
    band_gap: float


class SearchResponse(BaseModel):
    data: list[Material]


def soak_app(seed: int) -> tuple[FastAPI, Counter[str]]:
    """A materials search whose every answer is drawn from :data:`HTTP_FAULTS`."""
    app = FastAPI(title="soak", version="1")
    rng = random.Random(seed)
    lock = threading.Lock()
    served: Counter[str] = Counter()

    @app.get("/search", operation_id="search", response_model=SearchResponse)
    async def search(formula: str = Query("Si")) -> Any:
        with lock:
            fault = _weighted(rng, HTTP_FAULTS)
            served[fault] += 1
        if fault == "slow":
            await asyncio.sleep(CLIENT_TIMEOUT * 2)
        if fault in ("503", "500", "400"):
            return JSONResponse({"detail": fault}, status_code=int(fault))
        if fault == "429":
            return JSONResponse({"detail": "slow down"}, status_code=429, headers={"Retry-After": "0"})
        return {"data": [{"id": "mp-149", "formula": formula, "band_gap": 0.61}]}

    return app, served


@dataclass
class SoakReport:
    runs: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    untyped: list[str] = field(default_factory=list)
    http_faults: Counter[str] = field(default_factory=Counter)
    callable_faults: Counter[str] = field(default_factory=Counter)
    probe_rounds: int = 0
    seconds: float = 0.0
    peak_mib: float = 0.0
    warm_mib: float = 0.0
    end_mib: float = 0.0
    leaked_tasks: int = 0
    cooldowns_left: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        return [
            f"runs: {self.runs} in {self.seconds:.1f} s; outcomes: {dict(sorted(self.outcomes.items()))}",
            f"faults served: http {dict(sorted(self.http_faults.items()))}; "
            f"callables {dict(sorted(self.callable_faults.items()))}",
            f"health monitor rounds: {self.probe_rounds}",
            f"memory (tracemalloc): peak {self.peak_mib:.1f} MiB; after warm-up {self.warm_mib:.2f} MiB, "
            f"at the end {self.end_mib:.2f} MiB",
            f"leaked tasks: {self.leaked_tasks}; cooldowns left after the traffic: {self.cooldowns_left}; "
            f"runs that ended untyped: {len(self.untyped)}",
        ]


def _callable(name: str, rng: random.Random, faults: Counter[str], *, sync: bool, tag: str = "") -> Any:
    """A lookup failing at random; *tag* ends every failure's message (the fleet soak names
    the worker there, so a mark read from Redis says which process made it)."""

    def outcome() -> str:
        fault = _weighted(rng, CALLABLE_FAULTS)
        faults[fault] += 1
        if fault == "unavailable":
            raise InvocationUnavailableError(f"{name} is down{tag}")
        if fault == "refuse":
            raise NonRetryableInvocationError(f"{name} refused{tag}", status_code=400)
        return fault

    if sync:

        def lookup_sync(formula: str = "Si") -> dict[str, Any]:
            if outcome() == "slow":
                time.sleep(0.01)
            return {"id": f"{name}-1", "formula": formula, "band_gap": 0.6}

        return lookup_sync

    async def lookup(formula: str = "Si") -> dict[str, Any]:
        if outcome() == "slow":
            await anyio.sleep(0.01)
        return {"id": f"{name}-1", "formula": formula, "band_gap": 0.6}

    return lookup


async def _build(
    router: SchemaRouter, base_url: str, rng: random.Random, report: SoakReport, *, tag: str = ""
) -> list[str]:
    tools = []
    for index in range(10):
        name = f"http_{index}"
        await router.add_url(
            f"{base_url}/openapi.json",
            kind="openapi",
            name=name,
            provider=PROVIDERS[index % 4],
            access_mode="openapi",
            timeout_seconds=CLIENT_TIMEOUT,
            retry=RetryPolicy(max_attempts=2, backoff_seconds=0.0, jitter=False),
        )
        tools.append(name)
    fields = [FieldSpec(name="band_gap"), FieldSpec(name="formula"), FieldSpec(name="id")]
    for index in range(10):
        name = f"py_{index}"
        fn = _callable(name, rng, report.callable_faults, sync=index % 3 == 0, tag=tag)
        router.add_callable(fn, name=name, provider=PROVIDERS[(index + 1) % 4], read_only=True, fields=fields)
        tools.append(name)
    for name in tools[::4]:
        router.register_health_probe(name, _endpoint(router, name), _probe(rng, tag=tag))
    return tools


def _endpoint(router: SchemaRouter, tool: str) -> str:
    return router.tools[tool].endpoints[0].name


def _probe(rng: random.Random, *, tag: str = "") -> Any:
    """A probe that fails one time in five: returns False, or with a *tag* raises a message
    ending with it (the cooldown's reason then names the worker that made the mark)."""

    async def probe() -> bool:
        healthy = rng.random() < 0.8
        if not healthy and tag:
            raise InvocationUnavailableError(f"probe failed{tag}")
        return healthy

    return probe


def _request(rng: random.Random, tools: list[str]) -> PlanRequest:
    return PlanRequest(
        query=rng.choice(["band gap of Si", "Si band gap and formula", "formula", "id and band gap"]),
        arguments={"formula": "Si"} if rng.random() < 0.7 else {},
        preferred_tools=rng.sample(tools, k=rng.choice([0, 1, 2])),
        fallback_scope=rng.choice(["disabled", "same_provider", "cross_provider", "cross_provider"]),
        max_fallbacks=rng.choice([1, 3, 8]),
    )


async def _one(router: SchemaRouter, request: PlanRequest, report: SoakReport) -> None:
    try:
        result = await router.invoke(request)
    except SchemaRouterError as exc:
        report.outcomes[type(exc).__name__] += 1
    except Exception as exc:  # the invariant broken: a run that ended untyped
        report.untyped.append(f"{type(exc).__name__}: {exc}")
    else:
        report.outcomes["answered" if isinstance(result, ToolResult) else "odd"] += 1
    report.runs += 1


async def soak(runs: int = 1000, *, burst: int = 200, seed: int = 7) -> SoakReport:
    """Run *runs* questions in bursts of *burst* concurrent ones; return the report."""
    report = SoakReport()
    rng = random.Random(seed)
    app, served = soak_app(seed)
    server = UvicornThread(app).start()
    tracemalloc.start()
    started = time.perf_counter()
    tasks_before = len(asyncio.all_tasks())
    try:
        router = SchemaRouter(cooldown=COOLDOWN)
        async with router:
            tools = await _build(router, server.url, rng, report)
            await router.start_health_monitor(interval_seconds=0.05, probe_timeout_seconds=0.2)
            done = 0
            while done < runs:
                size = min(burst, runs - done)
                async with anyio.create_task_group() as group:
                    for _ in range(size):
                        group.start_soon(_one, router, _request(rng, tools), report)
                done += size
                if report.warm_mib == 0.0 and done >= min(runs, 2 * burst):
                    gc.collect()
                    report.warm_mib = tracemalloc.get_traced_memory()[0] / 2**20
            monitor = router._background.monitor
            report.probe_rounds = monitor.rounds if monitor is not None else 0
            await router.stop_health_monitor()
            await anyio.sleep(COOLDOWN.max_seconds + 0.1)  # every cooldown has run out by now
            report.cooldowns_left = router.inspect().execution.unavailable_access_paths
        del router
        gc.collect()
        report.end_mib = tracemalloc.get_traced_memory()[0] / 2**20
        report.peak_mib = tracemalloc.get_traced_memory()[1] / 2**20
        await anyio.lowlevel.checkpoint()
        report.leaked_tasks = len(asyncio.all_tasks()) - tasks_before
    finally:
        tracemalloc.stop()
        server.stop()
    report.seconds = time.perf_counter() - started
    report.http_faults = served
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--burst", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    options = parser.parse_args()
    report = anyio.run(lambda: soak(options.runs, burst=options.burst, seed=options.seed))
    print("\n".join(report.lines()))
    broken = report.untyped or report.leaked_tasks or report.cooldowns_left
    raise SystemExit(1 if broken else 0)


if __name__ == "__main__":
    main()
