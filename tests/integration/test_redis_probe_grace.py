"""A failed probe on a mark another router made stays within ``max_seconds``.

Found by the fleet soak (``make soak`` with ``--peer-grace-seconds 0.3``). A router holds a
peer's mark ``peer_grace_seconds`` longer than Redis does; a failed probe there "never
shortens a running mark", and used to re-share the grace as a cooldown of ``max + grace``,
the next router adding its own grace on top while the probes kept failing. Lengthening now
starts from the shared deadline (``AvailabilityStore.shared_until``).
"""

from __future__ import annotations

import anyio
import pytest

from schemarouter_integrations import (
    CooldownPolicy,
    InvocationUnavailableError,
    PlanRequest,
    SchemaRouter,
    SchemaRouterError,
)
from schemarouter_integrations.events import RouterEvent, RouteUnavailableEvent
from schemarouter_integrations.stores import RedisAvailabilityStore
from tests.servers.redis_server import RedisServer

pytestmark = [pytest.mark.integration, pytest.mark.redis, pytest.mark.anyio]

POLICY = CooldownPolicy(base_seconds=10, max_seconds=10)
PATH = "api.down"


async def down(formula: str = "Si") -> dict[str, object]:
    raise InvocationUnavailableError("api is down")


async def _failing_probe() -> bool:
    return False


def _router(url: str) -> SchemaRouter:
    store = RedisAvailabilityStore(url, "probe-grace", peer_grace_seconds=5)
    router = SchemaRouter(cooldown=POLICY, availability_store=store)
    router.add_callable(down, name="api", provider="p", read_only=True, fields=["band_gap", "formula"])
    router.register_health_probe("api", router.tools["api"].endpoints[0].name, _failing_probe)
    return router


async def test_a_failed_probe_on_a_peers_mark_cools_no_longer_than_max_seconds(
    redis_server: RedisServer,
) -> None:
    first, second = _router(redis_server.url), _router(redis_server.url)
    announced: list[float] = []

    def on_event(event: RouterEvent) -> None:
        if isinstance(event, RouteUnavailableEvent):
            announced.append(event.cooldown_seconds)

    second.subscribe(on_event)
    async with first, second:
        with pytest.raises(SchemaRouterError):
            await first.invoke(PlanRequest(query="band gap", arguments={"formula": "Si"}))
        with anyio.fail_after(10):
            await first.availability_store.flush()
            while PATH not in second.inspect().execution.cooldowns:  # noqa: ASYNC110 - set through Redis
                await anyio.sleep(0.01)
        await second.start_health_monitor(interval_seconds=3600)  # one round at once: the probe fails
        with anyio.fail_after(10):
            while not announced:  # noqa: ASYNC110 - published by the monitor
                await anyio.sleep(0.01)
        await second.stop_health_monitor()

    assert announced[0] <= POLICY.max_seconds
