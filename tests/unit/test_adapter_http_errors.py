"""The one HTTP error map and the bounded request path (httpx.MockTransport, no sockets)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import anyio
import httpx
import pytest

from schemarouter_integrations import InvocationUnavailableError, NonRetryableInvocationError
from schemarouter_integrations.adapters._http import HttpTarget, origin_of
from schemarouter_integrations.adapters._http_errors import (
    body_excerpt,
    http_failure,
    parse_retry_after,
)

pytestmark = pytest.mark.anyio

ORIGIN = "http://api.test"
SECRET = "sk-live-1234567890"

Handler = Callable[[httpx.Request], httpx.Response]


def target(handler: Handler, **kw: object) -> HttpTarget:
    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    return HttpTarget(client, ORIGIN, {"x-api-key": SECRET}, **kw)  # type: ignore[arg-type]


def raising(exc: type[httpx.HTTPError]) -> Handler:
    def handler(request: httpx.Request) -> httpx.Response:
        raise exc("boom", request=request)  # type: ignore[call-arg]

    return handler


@pytest.mark.parametrize(
    "exc", [httpx.ConnectError, httpx.ConnectTimeout, httpx.ReadTimeout, httpx.PoolTimeout]
)
async def test_connect_errors_and_timeouts_are_unavailable(exc: type[httpx.HTTPError]) -> None:
    with pytest.raises(InvocationUnavailableError):
        await target(raising(exc)).fetch_json("GET", f"{ORIGIN}/x")


async def test_other_transport_errors_are_unavailable() -> None:
    with pytest.raises(InvocationUnavailableError, match="transport failure"):
        await target(raising(httpx.RemoteProtocolError)).fetch_json("GET", f"{ORIGIN}/x")


@pytest.mark.parametrize("status", [408, 425, 429, 500, 502, 503, 504])
async def test_transient_statuses_are_unavailable_with_their_status(status: int) -> None:
    with pytest.raises(InvocationUnavailableError) as caught:
        await target(lambda r: httpx.Response(status, json={})).fetch_json("GET", f"{ORIGIN}/x")
    assert caught.value.status_code == status


@pytest.mark.parametrize("status", [400, 401, 403, 404, 409, 422, 501, 505])
async def test_other_error_statuses_are_non_retryable(status: int) -> None:
    handler = lambda r: httpx.Response(status, json={"detail": "nope"})  # noqa: E731
    with pytest.raises(NonRetryableInvocationError) as caught:
        await target(handler).fetch_json("GET", f"{ORIGIN}/materials/x")
    assert caught.value.status_code == status
    assert f"GET /materials/x answered {status}" in str(caught.value)
    assert "nope" in str(caught.value)


async def test_redirects_are_not_followed_and_not_retried() -> None:
    handler = lambda r: httpx.Response(302, headers={"location": "http://evil.test/"})  # noqa: E731
    with pytest.raises(NonRetryableInvocationError, match="302"):
        await target(handler).fetch_json("GET", f"{ORIGIN}/x")


async def test_retry_after_in_seconds_is_carried() -> None:
    handler = lambda r: httpx.Response(429, headers={"Retry-After": "7"})  # noqa: E731
    with pytest.raises(InvocationUnavailableError) as caught:
        await target(handler).fetch_json("GET", f"{ORIGIN}/x")
    assert caught.value.retry_after == 7.0


def test_retry_after_as_http_date_counts_from_now() -> None:
    now = 784111777.0  # Sun, 06 Nov 1994 08:49:37 GMT
    assert parse_retry_after("Sun, 06 Nov 1994 08:50:07 GMT", now=lambda: now) == 30.0
    assert parse_retry_after("Sun, 06 Nov 1994 08:00:00 GMT", now=lambda: now) == 0.0


@pytest.mark.parametrize("value", [None, "", "soon", "nan", "inf"])
def test_unusable_retry_after_is_ignored(value: str | None) -> None:
    assert parse_retry_after(value) is None


def test_error_excerpt_is_short_single_line_and_redacted() -> None:
    body = (f"bad key {SECRET}\n" + "x" * 1000).encode()
    excerpt = body_excerpt(body, [SECRET])
    assert len(excerpt) <= 200
    assert SECRET not in excerpt
    assert "***" in excerpt
    assert "\n" not in excerpt


def test_optimade_error_documents_give_title_and_detail() -> None:
    body = b'{"errors": [{"status": "400", "title": "Bad Request", "detail": "Unable to parse"}]}'
    failure = http_failure("GET /v1/structures", status_code=400, body=body)
    assert isinstance(failure, NonRetryableInvocationError)
    assert "Bad Request: Unable to parse" in str(failure)


async def test_error_messages_never_carry_request_headers_or_query() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(403, text=f"echo {request.headers['x-api-key']}")

    with pytest.raises(NonRetryableInvocationError) as caught:
        await target(handler).fetch_json("GET", f"{ORIGIN}/x", params=[("q", "secret-query")])
    assert SECRET not in str(caught.value)
    assert "secret-query" not in str(caught.value)


async def test_html_body_is_non_retryable() -> None:
    handler = lambda r: httpx.Response(200, html="<html>maintenance</html>")  # noqa: E731
    with pytest.raises(NonRetryableInvocationError, match="not valid JSON"):
        await target(handler).fetch_json("GET", f"{ORIGIN}/x")


async def test_declared_oversized_body_is_refused_before_reading() -> None:
    handler = lambda r: httpx.Response(200, content=b"[" + b"1," * 100 + b"1]")  # noqa: E731
    with pytest.raises(NonRetryableInvocationError, match="larger than the limit of 50 bytes"):
        await target(handler, max_response_bytes=50).fetch_json("GET", f"{ORIGIN}/x")


async def test_streamed_body_stops_being_read_past_the_limit() -> None:
    chunks_sent = 0

    async def endless() -> AsyncIterator[bytes]:
        nonlocal chunks_sent
        while True:
            chunks_sent += 1
            yield b"x" * 1024

    handler = lambda r: httpx.Response(200, content=endless())  # noqa: E731
    with pytest.raises(NonRetryableInvocationError, match="larger than the limit"):
        await target(handler, max_response_bytes=10_000).fetch_json("GET", f"{ORIGIN}/x")
    assert chunks_sent <= 11


async def test_truncated_body_is_non_retryable() -> None:
    async def broken() -> AsyncIterator[bytes]:
        yield b'{"data": ['
        raise httpx.RemoteProtocolError("peer closed connection without sending complete body")

    handler = lambda r: httpx.Response(200, content=broken())  # noqa: E731
    with pytest.raises(NonRetryableInvocationError, match="truncated"):
        await target(handler).fetch_json("GET", f"{ORIGIN}/x")


async def test_a_request_slower_than_the_route_timeout_is_unavailable() -> None:
    async def never(request: httpx.Request) -> httpx.Response:
        await anyio.Event().wait()
        raise AssertionError("unreachable")

    client = httpx.AsyncClient(transport=httpx.MockTransport(never))
    slow = HttpTarget(client, ORIGIN, timeout_seconds=0.01)
    with pytest.raises(InvocationUnavailableError, match=r"timed out after 0\.01s"):
        await slow.fetch_json("GET", f"{ORIGIN}/x")


async def test_secret_headers_reach_the_origin() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"ok": True})

    assert await target(handler).fetch_json("GET", f"{ORIGIN}/x") == {"ok": True}
    assert seen[0].headers["x-api-key"] == SECRET


async def test_requests_to_another_origin_are_refused_unsent() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={})

    with pytest.raises(NonRetryableInvocationError, match=r"may only reach http://api\.test"):
        await target(handler).fetch_json("GET", "http://evil.test/steal")
    assert seen == []


async def test_a_closed_client_is_a_clear_non_retryable_error() -> None:
    client = httpx.AsyncClient(transport=httpx.MockTransport(lambda r: httpx.Response(200)))
    await client.aclose()
    with pytest.raises(NonRetryableInvocationError, match="client is closed"):
        await HttpTarget(client, ORIGIN).fetch_json("GET", f"{ORIGIN}/x")


def test_origins_normalise_default_ports_and_case() -> None:
    assert origin_of("HTTP://API.test:80/a?b") == "http://api.test"
    assert origin_of("https://api.test:8443/") == "https://api.test:8443"
    with pytest.raises(ValueError):
        origin_of("ftp://api.test/")


async def test_a_client_source_callable_follows_the_current_client() -> None:
    ok = lambda r: httpx.Response(200, json={"ok": True})  # noqa: E731
    clients = [httpx.AsyncClient(transport=httpx.MockTransport(ok))]
    route = HttpTarget(lambda: clients[-1], ORIGIN)
    await clients[0].aclose()
    clients.append(httpx.AsyncClient(transport=httpx.MockTransport(ok)))
    assert await route.fetch_json("GET", f"{ORIGIN}/x") == {"ok": True}
