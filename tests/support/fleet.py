"""Routers sharing cooldowns through a real redis-server: the request they plan, the path
that goes down, and a router on its own connection to the server."""

from __future__ import annotations

from schemarouter_integrations import CooldownPolicy, PlanRequest, SchemaRouter
from schemarouter_integrations.stores import RedisAvailabilityStore
from tests.servers.redis_server import RedisServer
from tests.support.fakes import FakeClock
from tests.support.seed import seed_router

PATH = "mp_api.search"
REQUEST = PlanRequest(
    query="Si band gap",
    arguments={"formula": "Si"},
    preferred_tools=("mp_api",),
    fallback_scope="same_provider",
)


def router_on(
    server: RedisServer,
    *,
    namespace: str = "fleet",
    down: tuple[str, ...] = (),
    clock: FakeClock | None = None,
    **store_options: float,
) -> SchemaRouter:
    """The seed's four tools (those in *down* unavailable) with a RedisAvailabilityStore on *server*."""
    store_options.setdefault("peer_grace_seconds", 0.0)  # exact mirror times unless a test asks
    store_options.setdefault("reconnect_min_seconds", 0.05)
    store_options.setdefault("reconnect_max_seconds", 0.3)
    store = RedisAvailabilityStore(server.url, namespace, **store_options)
    router, _ = seed_router(
        SchemaRouter(
            cooldown=CooldownPolicy(base_seconds=30, max_seconds=300), clock=clock, availability_store=store
        ),
        down=down,
    )
    return router
