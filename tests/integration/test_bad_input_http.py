"""Hostile answers over a real loopback socket: a compressed bomb and a redirect that would
carry the API key away. A tiny server in this file sends them byte for byte."""

from __future__ import annotations

import gzip
import json
import tracemalloc
import zlib
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress

import anyio
import httpx
import pytest
from anyio.abc import SocketStream

from schemarouter_integrations import NonRetryableInvocationError, PlanRequest, SchemaRouter

pytestmark = [pytest.mark.integration, pytest.mark.anyio]

KEY = "sk-loopback-0123456789"
OPENAPI = {
    "openapi": "3.0.3",
    "info": {"title": "hostile", "version": "1"},
    "paths": {
        "/materials": {
            "get": {
                "operationId": "search",
                "parameters": [{"name": "formula", "in": "query", "schema": {"type": "string"}}],
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "data": {
                                            "type": "array",
                                            "items": {
                                                "type": "object",
                                                "properties": {"band_gap": {"type": "number"}},
                                            },
                                        }
                                    },
                                }
                            }
                        },
                    }
                },
            }
        }
    },
}
DOCUMENT = json.dumps(OPENAPI).encode()
Answer = Callable[[str, int], tuple[str, dict[str, str], bytes]]


def nested_gzip_bomb(size: int) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    piece = bytes(1024 * 1024)
    inner = b"".join([*(packer.compress(piece) for _ in range(size // len(piece))), packer.flush()])
    return gzip.compress(inner)


@asynccontextmanager
async def hostile_server(answer: Answer) -> AsyncIterator[tuple[str, list[str]]]:
    """Serve ``/openapi.json`` honestly and every other path with *answer*; yields the base URL
    and the list of request heads received."""
    heads: list[str] = []
    listener = await anyio.create_tcp_listener(local_host="127.0.0.1")
    port = listener.extra(anyio.abc.SocketAttribute.local_port)

    async def serve(stream: SocketStream) -> None:
        async with stream:
            head = b""
            while b"\r\n\r\n" not in head:
                head += await stream.receive()
            text = head.decode("latin-1")
            heads.append(text)
            path = text.split(" ", 2)[1]
            if path == "/openapi.json":
                status, headers, body = "200 OK", {"content-type": "application/json"}, DOCUMENT
            else:
                status, headers, body = answer(path, port)
            lines = [f"HTTP/1.1 {status}", f"content-length: {len(body)}", "connection: close"]
            lines += [f"{name}: {value}" for name, value in headers.items()]
            with suppress(anyio.BrokenResourceError, anyio.ClosedResourceError):  # the client hung up
                await stream.send(("\r\n".join(lines) + "\r\n\r\n").encode() + body)

    async with listener, anyio.create_task_group() as group:
        group.start_soon(listener.serve, serve)
        yield f"http://127.0.0.1:{port}", heads
        group.cancel_scope.cancel()


async def test_a_nested_gzip_bomb_from_the_network_is_refused_without_inflating_it() -> None:
    bomb = nested_gzip_bomb(256 * 1024 * 1024)
    headers = {"content-type": "application/json", "content-encoding": "gzip, gzip"}
    serving = hostile_server(lambda path, port: ("200 OK", headers, bomb))
    async with serving as (base, _), SchemaRouter(max_response_bytes=1 << 20) as router:
        await router.add_url(f"{base}/openapi.json", kind="openapi", name="hostile", provider="p")
        tracemalloc.start()
        try:
            with pytest.raises(NonRetryableInvocationError, match="larger than the limit"):
                await router.invoke(PlanRequest(query="band gap", arguments={"formula": "Si"}))
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert router.inspect().execution.unavailable_access_paths == []
    assert peak < 32 * 1024 * 1024


async def test_a_redirect_elsewhere_is_refused_and_the_key_stays_home() -> None:
    def redirect(path: str, port: int) -> tuple[str, dict[str, str], bytes]:
        return "302 Found", {"location": f"http://localhost:{port}/collect"}, b""

    async with hostile_server(redirect) as (base, heads):
        following = httpx.AsyncClient(follow_redirects=True)
        async with SchemaRouter(http_client=following) as router:
            await router.add_url(
                f"{base}/openapi.json",
                kind="openapi",
                name="hostile",
                provider="p",
                headers={"x-api-key": KEY},
            )
            with pytest.raises(NonRetryableInvocationError, match="302"):
                await router.invoke(PlanRequest(query="band gap", arguments={"formula": "Si"}))
        await following.aclose()
    assert not any("/collect" in head for head in heads)
