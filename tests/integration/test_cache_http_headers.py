"""The built-in HTTP adapters honour a route's caching headers: ``Cache-Control: max-age``
bounds the TTL, ``no-store`` keeps the answer out, over a real loopback OpenAPI server."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI, Response

from schemarouter_integrations import CachePolicy, MemoryAnswerCache, PlanRequest, SchemaRouter
from tests.servers.uvicorn_thread import UvicornThread
from tests.support.fakes import FakeClock

pytestmark = [pytest.mark.integration, pytest.mark.anyio]


def gaps_app(calls: dict[str, int]) -> FastAPI:
    app = FastAPI()

    @app.get("/gaps", operation_id="gaps")
    def gaps(formula: str, response: Response, cache: str = "") -> dict[str, Any]:
        """Band gaps of a formula."""
        calls[cache] = calls.get(cache, 0) + 1
        if cache:
            response.headers["Cache-Control"] = cache
        return {"data": [{"formula": formula, "band_gap": 1.1}]}

    return app


@pytest.fixture
def served() -> Iterator[tuple[str, dict[str, int]]]:
    calls: dict[str, int] = {}
    server = UvicornThread(gaps_app(calls)).start()
    try:
        yield server.url, calls
    finally:
        server.stop()


async def _router(url: str, clock: FakeClock) -> SchemaRouter:
    router = SchemaRouter(clock=clock, answer_cache=MemoryAnswerCache(), allow_private_networks=True)
    await router.add_url(f"{url}/openapi.json", kind="openapi", name="gaps_api", base_url=url)
    return router


def ask(cache: str) -> PlanRequest:
    return PlanRequest(
        query="band gap",
        arguments={"formula": "Si", "cache": cache},
        cache=CachePolicy(ttl_seconds=60, stale_if_error_seconds=600),
    )


async def test_max_age_bounds_the_ttl_of_an_openapi_answer(served: tuple[str, dict[str, int]]) -> None:
    url, calls = served
    clock = FakeClock()
    async with await _router(url, clock) as router:
        await router.invoke(ask("max-age=5"))
        clock.advance(3)
        assert (await router.invoke(ask("max-age=5"))).cached
        clock.advance(3)  # 6 s: past max-age, well within the policy's 60 s
        assert not (await router.invoke(ask("max-age=5"))).cached
    assert calls["max-age=5"] == 2


async def test_no_store_keeps_an_openapi_answer_out_of_the_cache(served: tuple[str, dict[str, int]]) -> None:
    url, calls = served
    async with await _router(url, FakeClock()) as router:
        await router.invoke(ask("no-store"))
        result = await router.invoke(ask("no-store"))
        assert not result.cached
        assert router.inspect().cache["not_stored"] == 2
    assert calls["no-store"] == 2


async def test_without_headers_the_policy_ttl_applies(served: tuple[str, dict[str, int]]) -> None:
    url, calls = served
    clock = FakeClock()
    async with await _router(url, clock) as router:
        await router.invoke(ask(""))
        clock.advance(59)
        assert (await router.invoke(ask(""))).cached
    assert calls[""] == 1
