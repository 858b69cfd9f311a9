"""The health monitor reopens a cooled route, and a Redis store shares cooldowns across workers.

Runs offline: ``python cookbook/health_and_fleet.py``. The fleet part needs ``redis-server``
on the PATH (``apt-get install redis-server``; ``make test`` installs it as root) and is
skipped with a message without it.

1. One router, two access paths of the same provider. The REST path fails, cools down, and a
   trusted probe (an in-process check here; ``adapters.optimade_info_probe`` or
   ``adapters.openapi_operation_probe`` for HTTP) reopens it once it is healthy again.
2. Two "workers" (two routers, as two processes would have) share one Redis: the cooldown
   worker A records is seen by worker B within a second, so B never pays the failed wait.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from schemarouter_integrations import InvocationUnavailableError, PlanRequest, RouterEvent, SchemaRouter
from schemarouter_integrations.stores import AvailabilityStore, RedisAvailabilityStore

REQUEST = PlanRequest(
    query="band gap",
    arguments={"formula": "Si"},
    preferred_tools=["mp_api"],
    fallback_scope="same_provider",
)


class Upstream:
    """The MP REST API as seen from here: up or down."""

    up = False

    async def search(self, formula: str) -> list[dict[str, Any]]:
        if not self.up:
            raise InvocationUnavailableError("api.materialsproject.org: connection refused")
        return [{"formula": formula, "band_gap": 0.61}]

    async def probe(self) -> bool:
        return self.up


async def mirror(formula: str) -> list[dict[str, Any]]:
    return [{"formula": formula, "band_gap": 0.61}]


def materials_router(upstream: Upstream, store: AvailabilityStore | None = None) -> SchemaRouter:
    router = SchemaRouter(availability_store=store)
    fields = ["band_gap", "formula"]
    common: dict[str, Any] = {"endpoint": "search", "read_only": True, "fields": fields}
    router.add_callable(upstream.search, name="mp_api", provider="materials_project", **common)
    router.add_callable(mirror, name="mp_python", provider="materials_project", **common)
    return router


async def health_monitor() -> None:
    print("1. Health monitor")
    upstream = Upstream()
    async with materials_router(upstream) as router:
        result = await router.invoke(REQUEST)
        print(f"  answered by {result.tool}; cooling down: {router.inspect().execution.cooldowns}")
        reopened = anyio.Event()

        def watch(event: RouterEvent) -> None:
            if event.type == "route.available":
                reopened.set()

        router.subscribe(watch)
        router.register_health_probe("mp_api", "search", upstream.probe)
        await router.start_health_monitor(interval_seconds=0.1, probe_timeout_seconds=1)
        upstream.up = True  # the outage ends; the next probe round sees it
        with anyio.fail_after(5):
            await reopened.wait()
        result = await router.invoke(REQUEST)
        print(f"  probe reopened mp_api.search; next answer by {result.tool}")


async def fleet(url: str) -> None:
    print("2. A Redis fleet")
    upstream = Upstream()
    worker_a = materials_router(
        upstream, RedisAvailabilityStore(url, namespace="cookbook", peer_grace_seconds=0)
    )
    worker_b = materials_router(
        upstream, RedisAvailabilityStore(url, namespace="cookbook", peer_grace_seconds=0)
    )
    async with worker_a, worker_b:
        result = await worker_a.invoke(REQUEST)
        print(f"  worker A: mp_api failed, answered by {result.tool}")
        started = time.monotonic()
        for _ in range(500):  # Redis tells every mirror within a second; poll for up to 5 s
            if "mp_api.search" in worker_b.inspect().execution.unavailable_access_paths:
                break
            await anyio.sleep(0.01)
        print(f"  worker B sees the cooldown after {time.monotonic() - started:.3f} s")
        result = await worker_b.invoke(REQUEST)
        print(f"  worker B's question went straight to {result.route} (no failed wait)")


async def main() -> None:
    await health_monitor()
    from cookbook.services.redis_server import RedisServer, redis_server_binary

    binary = redis_server_binary()
    if binary is None:
        print("2. A Redis fleet: skipped, redis-server is not installed")
        return
    server = RedisServer(binary).start()
    try:
        await fleet(server.url)
    finally:
        server.close()


if __name__ == "__main__":
    anyio.run(main)
