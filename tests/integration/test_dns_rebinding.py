"""DNS rebinding: the connection rule holds for the address the router's HTTP client actually
connects to, not only for the answer the check got. A resolver (``SchemaRouter(resolver=)``)
that answers differently the second time (public, then loopback; loopback, then a cloud
metadata address) gets the connection refused with ``AddressRefusedError``, and the real
loopback server behind the name never sees the request."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from schemarouter_integrations import SchemaRouter, SchemaRouterError
from schemarouter_integrations.adapters._network import AddressRefusedError

pytestmark = [pytest.mark.anyio, pytest.mark.integration]

HOST = "api.rebind.test"
DOCUMENT = {
    "openapi": "3.1.0",
    "info": {"title": "rebind", "version": "1"},
    "paths": {
        "/search": {
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


class Api(BaseHTTPRequestHandler):
    """The document and one search answer; every request path is recorded (HTTP/1.0: one
    connection per request, so each request connects anew)."""

    def do_GET(self) -> None:
        self.server.seen.append(self.path)  # type: ignore[attr-defined]
        body = DOCUMENT if self.path.startswith("/openapi.json") else {"data": [{"band_gap": 1.1}]}
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[ThreadingHTTPServer]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Api)
    httpd.seen = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd
    finally:
        httpd.shutdown()
        httpd.server_close()


class Rebinding:
    """Answers *first* for the first *times* lookups of the name, then *then*."""

    def __init__(self, first: str, then: str, *, times: int = 1) -> None:
        self.first, self.then, self.times = first, then, times
        self.asked: list[str] = []

    async def __call__(self, host: str) -> list[str]:
        self.asked.append(host)
        return [self.first if len(self.asked) <= self.times else self.then]


async def test_a_name_checked_public_that_connects_to_loopback_is_refused(
    server: ThreadingHTTPServer,
) -> None:
    resolver = Rebinding("93.184.216.34", "127.0.0.1")
    router = SchemaRouter(resolver=resolver)
    try:
        with pytest.raises(AddressRefusedError, match="rebinding"):
            await router.add_url(
                f"http://{HOST}:{server.server_port}/openapi.json", kind="openapi", name="api"
            )
    finally:
        await router.aclose()
    assert len(resolver.asked) >= 2  # the check, then the connection, each asked the resolver
    assert server.seen == []  # type: ignore[attr-defined]


async def test_a_call_whose_name_now_resolves_to_a_metadata_address_is_refused(
    server: ThreadingHTTPServer,
) -> None:
    resolver = Rebinding("127.0.0.1", "169.254.169.254", times=2)  # the check and the document
    router = SchemaRouter(resolver=resolver)
    try:
        await router.add_url(f"http://{HOST}:{server.server_port}/openapi.json", kind="openapi", name="api")
        assert server.seen == ["/openapi.json"]  # type: ignore[attr-defined]
        with pytest.raises(SchemaRouterError) as raised:
            await router.invoke("band gap", budget=None)
    finally:
        await router.aclose()
    assert isinstance(raised.value, AddressRefusedError) and "metadata" in str(raised.value)
    assert server.seen == ["/openapi.json"]  # type: ignore[attr-defined]


async def test_a_name_that_keeps_its_address_is_connected_as_before(server: ThreadingHTTPServer) -> None:
    resolver = Rebinding("127.0.0.1", "127.0.0.1")
    router = SchemaRouter(resolver=resolver)
    try:
        await router.add_url(f"http://{HOST}:{server.server_port}/openapi.json", kind="openapi", name="api")
        result = await router.invoke("band gap")
    finally:
        await router.aclose()
    assert result.records == [{"band_gap": 1.1}]
    assert len(resolver.asked) >= 3  # the check, the document's connection, the call's connection
