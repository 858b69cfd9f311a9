"""Hostile HTTP answers end as the documented errors without costing memory or secrets.

httpx.MockTransport, no sockets. Bodies are streamed (an async iterator) as a real server's
would be, so nothing is read before the route reads it.
"""

from __future__ import annotations

import gzip
import json
import tracemalloc
import zlib
from collections.abc import AsyncIterator, Callable

import httpx
import pytest

from schemarouter_integrations import NonRetryableInvocationError
from schemarouter_integrations.adapters._http import HttpTarget

pytestmark = pytest.mark.anyio

ORIGIN = "http://api.test"
SECRET = "sk-live-1234567890"

Handler = Callable[[httpx.Request], httpx.Response]


def target(handler: Handler, client: httpx.AsyncClient | None = None, **kw: int) -> HttpTarget:
    client = client or httpx.AsyncClient(transport=httpx.MockTransport(handler))
    return HttpTarget(client, ORIGIN, {"x-api-key": SECRET}, **kw)


def streamed(body: bytes) -> AsyncIterator[bytes]:
    async def chunks() -> AsyncIterator[bytes]:
        yield body

    return chunks()


def gzip_of_zeros(size: int) -> bytes:
    """gzip of *size* zero bytes, compressed piece by piece (never *size* bytes in memory)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    piece = bytes(1024 * 1024)
    parts = [packer.compress(piece) for _ in range(size // len(piece))]
    return b"".join([*parts, packer.flush()])


async def test_a_nested_gzip_bomb_is_refused_without_inflating_it() -> None:
    bomb = gzip.compress(gzip_of_zeros(64 * 1024 * 1024))  # under 1 KB on the wire
    headers = {"content-encoding": "gzip, gzip", "content-type": "application/json"}
    route = target(
        lambda r: httpx.Response(200, content=streamed(bomb), headers=headers), max_response_bytes=1 << 20
    )
    tracemalloc.start()
    try:
        with pytest.raises(NonRetryableInvocationError, match="larger than the limit"):
            await route.fetch_json("GET", f"{ORIGIN}/x")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 * 1024 * 1024


async def test_a_gzip_body_within_the_limit_is_decoded() -> None:
    body = gzip.compress(json.dumps({"data": [{"band_gap": 0.61}] * 500}).encode())
    headers = {"content-encoding": "gzip"}
    route = target(lambda r: httpx.Response(200, content=streamed(body), headers=headers))
    assert (await route.fetch_json("GET", f"{ORIGIN}/x"))["data"][499] == {"band_gap": 0.61}


async def test_a_corrupt_gzip_body_is_non_retryable() -> None:
    headers = {"content-encoding": "gzip"}
    route = target(lambda r: httpx.Response(200, content=streamed(b"not gzip at all"), headers=headers))
    with pytest.raises(NonRetryableInvocationError, match="corrupt"):
        await route.fetch_json("GET", f"{ORIGIN}/x")


async def test_json_nested_too_deeply_to_read_is_non_retryable() -> None:
    deep = b"[" * 100_000 + b"]" * 100_000
    route = target(lambda r: httpx.Response(200, content=streamed(deep)))
    with pytest.raises(NonRetryableInvocationError, match="nested too deeply"):
        await route.fetch_json("GET", f"{ORIGIN}/x")


async def test_a_redirect_is_not_followed_even_by_a_client_that_follows_redirects() -> None:
    reached: list[tuple[str, str | None]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        reached.append((request.url.host, request.headers.get("x-api-key")))
        if request.url.host == "api.test":
            return httpx.Response(302, headers={"location": "http://collector.test/keys"})
        return httpx.Response(200, json={"data": []})

    following = httpx.AsyncClient(transport=httpx.MockTransport(handler), follow_redirects=True)
    with pytest.raises(NonRetryableInvocationError, match="302"):
        await target(handler, following).fetch_json("GET", f"{ORIGIN}/x")
    assert reached == [("api.test", SECRET)]
