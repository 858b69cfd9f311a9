"""One ``redis.asyncio`` client per event loop, for the stores that talk to Redis on demand."""

from __future__ import annotations

import asyncio
from typing import Any

from .._lazy import extra_needed
from ..errors import ConfigurationError
from ._breaker import Breaker
from ._redis_wire import describe_server, redact

with extra_needed("redis", "the Redis stores need the redis client"):
    import redis.asyncio as aioredis
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff


class LoopClients:
    """The client of the running loop, created on first use (a client is bound to its loop)."""

    def __init__(self, url: str, timeout_seconds: float) -> None:
        if not isinstance(url, str):
            raise ConfigurationError(f"the Redis URL must be a string, got {type(url).__name__}")
        try:
            aioredis.connection.parse_url(url)
        except ValueError as exc:
            raise ConfigurationError(f"not a usable Redis URL ({redact(url, url)}): {exc}") from None
        self.url = url
        self.timeout_seconds = timeout_seconds
        self._clients: dict[int, tuple[asyncio.AbstractEventLoop, Any]] = {}

    def current(self) -> Any:
        loop = asyncio.get_running_loop()
        known = self._clients.get(id(loop))
        if known is not None and known[0] is loop:
            return known[1]
        for key, (other, _client) in list(self._clients.items()):
            if other.is_closed():
                del self._clients[key]
        client = aioredis.Redis.from_url(
            self.url,
            socket_timeout=self.timeout_seconds,
            socket_connect_timeout=self.timeout_seconds,
            retry=Retry(NoBackoff(), 0),  # one timeout per failed command, never four
        )
        self._clients[id(loop)] = (loop, client)
        return client

    async def aclose(self) -> None:
        """Close the running loop's client (clients of other loops die with their loop)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # pragma: no cover
            return
        known = self._clients.pop(id(loop), None)
        if known is not None:
            await known[1].aclose()


class OnDemandRedis:
    """What the stores that ask Redis on demand share: the clients, breaker and error count."""

    kind = "redis"
    shared = True
    namespace: str
    breaker: Breaker
    errors: int
    last_error: str | None
    _clients: LoopClients

    def _connect(self, url: str, namespace: str, timeout_seconds: float, breaker: Breaker | None) -> None:
        """Keep the clients of *url* (created on first use) and start counting errors."""
        self._clients = LoopClients(url, timeout_seconds)
        self.breaker = breaker or Breaker()
        self.namespace = namespace
        self.errors = 0
        self.last_error = None

    def _failed(self, exc: Exception) -> str:
        """Count the command that raised *exc*; its message, the URL's secrets redacted."""
        self.errors += 1
        self.last_error = redact(self._clients.url, f"{type(exc).__name__}: {exc}")
        return self.last_error

    def _server_status(self) -> dict[str, Any]:
        """The part of ``status()`` about the server: namespace, server and errors."""
        return {
            "namespace": self.namespace,
            "server": describe_server(self._clients.url),
            "errors": self.errors,
        }

    async def aclose(self) -> None:
        await self._clients.aclose()
