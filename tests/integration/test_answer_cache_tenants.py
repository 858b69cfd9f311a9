"""Tenants kept apart: two applications sharing one answer cache (one Redis, or one memory
cache) with their own server or their own API key never see each other's answers, and the
key in the cache never holds a credential."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import FastAPI, Header, HTTPException
from pydantic import BaseModel

from schemarouter_integrations import CachePolicy, MemoryAnswerCache, PlanRequest, SchemaRouter
from schemarouter_integrations.stores import AnswerCache, RedisAnswerCache
from tests.servers.redis_server import RedisServer
from tests.servers.uvicorn_thread import UvicornThread

pytestmark = [pytest.mark.integration, pytest.mark.anyio]

KEYS = {"key-of-tenant-a-1f9e": 1.1, "key-of-tenant-b-77c2": 2.2}
"""Each API key sees its own band gap (a private dataset per tenant)."""


class Gap(BaseModel):
    formula: str
    band_gap: float


class Gaps(BaseModel):
    data: list[Gap]


class Tenant:
    """A loopback OpenAPI server that answers each key its own data and counts its calls."""

    def __init__(self) -> None:
        self.calls = 0
        app = FastAPI()

        @app.get("/gaps", operation_id="gaps")
        def gaps(formula: str, x_api_key: str = Header("")) -> Gaps:
            """Band gaps of a formula."""
            if x_api_key not in KEYS:
                raise HTTPException(401, "unknown key")
            self.calls += 1
            return Gaps(data=[Gap(formula=formula, band_gap=KEYS[x_api_key])])

        self.server = UvicornThread(app).start()
        self.url = self.server.url


@pytest.fixture
def tenants() -> Iterator[tuple[Tenant, Tenant]]:
    pair = (Tenant(), Tenant())
    try:
        yield pair
    finally:
        for tenant in pair:
            tenant.server.stop()


async def application(cache: AnswerCache, server: Tenant, key: str) -> SchemaRouter:
    router = SchemaRouter(answer_cache=cache, allow_private_networks=True)
    await router.add_url(
        f"{server.url}/openapi.json",
        kind="openapi",
        name="gaps_api",
        base_url=server.url,
        headers={"X-Api-Key": key},
    )
    return router


ASK = PlanRequest(query="band gap", arguments={"formula": "Si"}, cache=CachePolicy(ttl_seconds=300))


async def test_two_applications_with_their_own_servers_on_one_redis_get_their_own_answers(
    redis_server: RedisServer, tenants: tuple[Tenant, Tenant]
) -> None:
    (server_a, server_b), (key_a, key_b) = tenants, list(KEYS)
    first = await application(RedisAnswerCache(redis_server.url), server_a, key_a)
    second = await application(RedisAnswerCache(redis_server.url), server_b, key_b)
    async with first, second:
        mine = await first.invoke(ASK)
        theirs = await second.invoke(ASK)
        again = await second.invoke(ASK)
    assert (mine.records[0]["band_gap"], mine.cached) == (1.1, False)
    assert (theirs.records[0]["band_gap"], theirs.cached) == (2.2, False)
    assert (again.records[0]["band_gap"], again.cached) == (2.2, True)
    assert (server_a.calls, server_b.calls) == (1, 1)
    stored = redis_server.client()
    dump = b" ".join([*stored.keys("*"), *(stored.hget(k, "v") or b"" for k in stored.keys("*answer:*"))])
    assert b"key-of-tenant" not in dump  # neither the key nor the value holds a credential


async def test_two_keys_on_one_server_sharing_a_memory_cache_get_their_own_answers(
    tenants: tuple[Tenant, Tenant],
) -> None:
    server, (key_a, key_b) = tenants[0], list(KEYS)
    cache = MemoryAnswerCache()
    first, second = await application(cache, server, key_a), await application(cache, server, key_b)
    async with first, second:
        mine = await first.invoke(ASK)
        theirs = await second.invoke(ASK)
        mine_again = await first.invoke(ASK)
    assert (mine.records[0]["band_gap"], theirs.records[0]["band_gap"]) == (1.1, 2.2)
    assert (theirs.cached, mine_again.cached) == (False, True)
    assert server.calls == 2
