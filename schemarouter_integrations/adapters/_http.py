"""The shared HTTP client and one bounded request path used by every HTTP adapter.

Every request of a route goes through :class:`HttpTarget`: it only ever talks to the
route's own origin (secret headers included) and never follows a redirect, whatever the
client's settings; it bounds each request by the route's timeout, streams the body, decodes
it in bounded pieces (:mod:`.decoding`) and stops past ``max_response_bytes`` of decoded
body, and maps every failure through :func:`~.http_errors.http_failure`.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict, Unpack

import anyio
import httpx

from .._contracts.origins import origin_of as contract_origin_of
from ..errors import (
    InvocationUnavailableError,
    LocalCapacityError,
    NonRetryableInvocationError,
    SchemaValidationError,
)
from ._decoding import ACCEPT_ENCODING
from ._http_body import Fetched as Fetched
from ._http_body import decode_json as decode_json
from ._http_body import decoded, oversized, read_headers, what_of
from ._http_body import with_hints as with_hints
from ._http_errors import http_failure

ClientSource = httpx.AsyncClient | Callable[[], httpx.AsyncClient]
"""A shared client, or a callable that returns the current shared client."""

DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024
ERROR_BODY_BYTES = 64 * 1024
MAX_CONNECTIONS = 100
"""Connections of the router's own pool (and of the local capacity of a client it is given)."""
LOCAL_CAPACITY_WAIT_SECONDS = 60.0
"""How long a request may wait for a free connection before :class:`LocalCapacityError`."""
_CAPACITY: weakref.WeakKeyDictionary[httpx.AsyncClient, anyio.CapacityLimiter] = weakref.WeakKeyDictionary()


def make_http_client() -> httpx.AsyncClient:
    """A pooled client; timeouts are set per request by each route."""
    return httpx.AsyncClient(
        limits=httpx.Limits(max_connections=MAX_CONNECTIONS, max_keepalive_connections=20),
        follow_redirects=False,
    )


def local_capacity(client: httpx.AsyncClient) -> anyio.CapacityLimiter:
    """The in-flight request slots of *client*: one per connection of its pool.

    A request takes a slot before its upstream timeout starts, so waiting for the router's
    own pool never counts as the upstream timing out (and never cools a healthy route).
    """
    limiter = _CAPACITY.get(client)
    if limiter is None:
        limiter = _CAPACITY[client] = anyio.CapacityLimiter(_pool_size(client))
    return limiter


def _pool_size(client: httpx.AsyncClient) -> int:
    """The connection limit of *client*'s pool (httpx keeps it private: read defensively)."""
    pool = getattr(getattr(client, "_transport", None), "_pool", None)
    size = getattr(pool, "_max_connections", None)
    return size if isinstance(size, int) and size > 0 else MAX_CONNECTIONS


def origin_of(url: str | httpx.URL) -> str:
    """``scheme://host[:port]`` of an absolute http(s) URL (default ports left out).

    Raises ``ValueError`` for anything else.
    """
    try:
        return contract_origin_of(url)
    except ValueError:
        raise ValueError(f"not an absolute http(s) URL: {public_url(url)}") from None


def public_url(url: str | httpx.URL) -> str:
    """The URL without query, fragment or user info: safe to show in messages."""
    try:
        parsed = httpx.URL(url) if isinstance(url, str) else url
        return str(parsed.copy_with(query=None, fragment=None, userinfo=b""))
    except (httpx.InvalidURL, TypeError, ValueError):
        return "<invalid URL>"


class RequestParts(TypedDict, total=False):
    """What one request carries besides its method and URL."""

    params: Sequence[tuple[str, str]] | None
    headers: Mapping[str, str] | None
    json_body: Any


@dataclass(frozen=True, slots=True)
class HttpTarget:
    """Where one route's requests may go, what they carry and how long they may take.

    ``headers`` are the route's secrets (API keys): sent only to ``origin``, never shown.
    ``client`` is a shared client or a zero-argument callable returning the current one (so
    a router that re-creates its client after closing it keeps its routes working).
    """

    client: ClientSource
    origin: str
    headers: Mapping[str, str] = field(default_factory=dict, repr=False)
    timeout_seconds: float = 10.0
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES
    _timeout: httpx.Timeout = field(init=False, repr=False, compare=False)
    """The route's timeout as httpx takes it (built once, not per request)."""
    _own: str = field(init=False, repr=False, compare=False)
    """``origin + "/"``: a URL string beginning with it is on the origin (read as written)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "_timeout", httpx.Timeout(self.timeout_seconds))
        object.__setattr__(self, "_own", f"{self.origin}/")

    @property
    def secrets(self) -> tuple[str, ...]:
        return tuple(self.headers.values())

    def allows(self, url: str | httpx.URL) -> bool:
        try:
            return origin_of(url) == self.origin
        except ValueError:
            return False

    async def fetch_json(self, method: str, url: str | httpx.URL, **parts: Unpack[RequestParts]) -> Any:
        """Send one request and decode its JSON body (``None`` for an empty 2xx body)."""
        return decode_json(await self.fetch(method, url, **parts), method, url)

    async def fetch_answer(self, method: str, url: str | httpx.URL, **parts: Unpack[RequestParts]) -> Any:
        """:meth:`fetch_json`, wrapped in :class:`CacheHints` when the response says how long
        it may be kept (``Cache-Control``, ``Expires``)."""
        fetched = await self.fetch(method, url, **parts)
        return with_hints(decode_json(fetched, method, url), fetched)

    async def fetch(
        self,
        method: str,
        url: str | httpx.URL,
        *,
        accept: str = "application/json",
        **parts: Unpack[RequestParts],
    ) -> Fetched:
        """Send one request to this target's origin and read the whole (bounded) body."""
        on_origin = isinstance(url, str) and url.startswith(self._own)  # else: parsed and compared
        try:
            url = httpx.URL(url) if isinstance(url, str) else url
        except httpx.InvalidURL as exc:  # e.g. a model's argument longer than a URL may be
            raise _unfit(what_of(method, url), exc) from None
        what = f"{method.upper()} {url.path}"
        headers = parts.get("headers")
        if not on_origin and not self.allows(url):
            raise NonRetryableInvocationError(
                f"refused to send {what} to {_safe_origin(url)}: this route may only reach {self.origin}"
            )
        client = self.client() if callable(self.client) else self.client
        if client.is_closed:
            raise NonRetryableInvocationError(f"{what}: the router's HTTP client is closed")
        sent = {"accept": accept, **(headers or {}), **self.headers, "accept-encoding": ACCEPT_ENCODING}
        capacity = local_capacity(client)
        try:  # a free slot is taken at once; only a full pool waits (under a deadline)
            capacity.acquire_nowait()
            acquired = True
        except anyio.WouldBlock:
            acquired = await _acquired(capacity)
        if not acquired:
            raise LocalCapacityError(
                f"{what}: no connection of the router's HTTP pool became free within "
                f"{LOCAL_CAPACITY_WAIT_SECONDS:g}s ({capacity.statistics().tasks_waiting} requests waiting); "
                "the upstream was not asked"
            )
        try:
            return await self._send(client, method, url, what, sent, parts)
        finally:
            capacity.release()

    async def _send(
        self,
        client: httpx.AsyncClient,
        method: str,
        url: str | httpx.URL,
        what: str,
        sent: dict[str, str],
        parts: RequestParts,
    ) -> Fetched:
        """The request itself, bounded by the route's timeout (the upstream's time only)."""
        params = parts.get("params")
        try:
            request = client.build_request(
                method,
                url,
                params=httpx.QueryParams(list(params)) if params else None,
                headers=sent,
                json=parts.get("json_body"),
                timeout=self._timeout,
            )
        except httpx.InvalidURL as exc:
            raise _unfit(what, exc) from None
        except UnicodeEncodeError:  # a header value the client cannot encode: never sent
            raise NonRetryableInvocationError(
                f"{what}: a request header holds a character that is not ASCII; nothing was sent"
            ) from None
        try:
            with anyio.fail_after(self.timeout_seconds):
                try:  # never follow: a redirect could take the secret headers to another origin
                    response = await client.send(request, stream=True, follow_redirects=False)
                except httpx.HTTPError as exc:
                    raise http_failure(what, exc=exc, phase="send") from exc
                try:
                    return await self._read(response, what)
                finally:
                    if not response.is_closed:  # a body read to its end is closed already
                        with anyio.CancelScope(shield=True):
                            await response.aclose()
        except TimeoutError:
            raise InvocationUnavailableError(
                f"{what} timed out after {self.timeout_seconds:g}s", transport=True
            ) from None

    async def _read(self, response: httpx.Response, what: str) -> Fetched:
        status = response.status_code
        if not 200 <= status < 300:
            body = await self._body(response, what, ERROR_BODY_BYTES, truncate=True)
            raise http_failure(
                what,
                status_code=status,
                headers=response.headers,
                body=body,
                secrets=self.secrets,
            )
        headers = read_headers(response.headers)  # one pass, not a scan per header read
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_response_bytes:
            raise oversized(what, self.max_response_bytes)
        encoding = headers.get("content-encoding", "")
        body = await self._body(response, what, self.max_response_bytes, truncate=False, encoding=encoding)
        validators: dict[str, str] = {k: headers[k] for k in ("etag", "last-modified") if k in headers}
        caching: dict[str, str] = {
            k: headers[k] for k in ("cache-control", "expires", "date") if k in headers
        }
        return Fetched(status, headers.get("content-type", ""), body, validators, caching)

    @staticmethod
    async def _body(
        response: httpx.Response, what: str, limit: int, *, truncate: bool, encoding: str | None = None
    ) -> bytes:
        """The decoded body, at most *limit* bytes: cut there (*truncate*) or refused
        (*encoding*: its ``content-encoding``, when read already)."""
        chunks: list[bytes] = []
        size = 0
        try:
            async for chunk in decoded(response, encoding):
                size += len(chunk)
                if size > limit:
                    if truncate:
                        chunks.append(chunk[: len(chunk) - (size - limit)])
                        return b"".join(chunks)
                    raise oversized(what, limit)
                chunks.append(chunk)
        except httpx.HTTPError as exc:
            raise http_failure(what, exc=exc, phase="body") from exc
        except ValueError as exc:
            if truncate:  # an error body we cannot decode: the status still says what happened
                return b"".join(chunks)
            raise NonRetryableInvocationError(f"{what}: {exc}") from None
        return b"".join(chunks)


async def _acquired(capacity: anyio.CapacityLimiter) -> bool:
    """Wait for a slot of *capacity* (False: none came in time)."""
    with anyio.move_on_after(LOCAL_CAPACITY_WAIT_SECONDS):
        await capacity.acquire()
        return True
    return False


def _unfit(what: str, exc: httpx.InvalidURL) -> SchemaValidationError:
    return SchemaValidationError(
        f"{what}: the arguments do not fit in a request ({exc}); shorten them", subject="arguments"
    )


def _safe_origin(url: str | httpx.URL) -> str:
    try:
        return origin_of(url)
    except ValueError:
        return public_url(url)
