"""GCRA shared by a fleet: one Lua script on Redis reads, decides and writes atomically.

Key ``<ns>:ratelimit:<key>`` holds the TAT in microseconds on Redis's own clock (``TIME``),
so workers on different hosts need no synchronised clocks; it expires once the bucket is
full again. Redis errors let the call go (the provider's own limit still answers); after a
few in a row a breaker (``_breaker.py``) lets calls go without asking Redis for a short,
growing pause.
"""

from __future__ import annotations

import logging
from typing import Any

from ._breaker import Breaker
from ._ratelimit import RateLimiterBackend
from ._redis_client import LoopClients
from ._redis_wire import describe_server, redact

__all__ = ["RedisRateLimiter"]

logger = logging.getLogger("schemarouter_integrations.stores.redis_ratelimit")

GCRA_SCRIPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1])
local tolerance = tonumber(ARGV[2])
local max_wait = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local wait = tat - tolerance - now
if wait < 0 then wait = 0 end
if wait > max_wait then return -1 end
local new_tat = tat + interval
redis.call('SET', KEYS[1], string.format('%.0f', new_tat), 'PX', math.ceil((new_tat - now) / 1000) + 1)
return wait
"""
"""ARGV (microseconds): emission interval, burst tolerance ``(B - 1) * T``, max wait.
Returns the wait in microseconds, or -1 when it would pass the max wait (nothing reserved)."""


class RedisRateLimiter(RateLimiterBackend):
    """Rate limits shared by every router on the same Redis and namespace."""

    kind = "redis"
    shared = True

    def __init__(
        self,
        url: str,
        namespace: str = "schemarouter",
        *,
        timeout_seconds: float = 1.0,
        breaker: Breaker | None = None,
    ) -> None:
        self._clients = LoopClients(url, timeout_seconds)
        self.breaker = breaker or Breaker()
        self.namespace = namespace
        self.prefix = f"{namespace}:ratelimit:"
        self.errors = 0
        self.last_error: str | None = None

    async def reserve(self, key: str, per_second: float, burst: float, max_wait: float) -> float | None:
        interval = 1_000_000.0 / per_second
        args = (round(interval), round((burst - 1.0) * interval), round(max_wait * 1_000_000))
        if self.breaker.state == "open":
            self.breaker.skipped += 1
            return 0.0
        try:
            waited = await self._clients.current().eval(GCRA_SCRIPT, 1, self.prefix + key, *args)
        except Exception as exc:
            self.breaker.failed()
            self.errors += 1
            self.last_error = redact(self._clients.url, f"{type(exc).__name__}: {exc}")
            logger.warning("rate limit on Redis failed (the call goes): %s", self.last_error)
            return 0.0
        self.breaker.succeeded()
        micros = int(waited)
        return None if micros < 0 else micros / 1_000_000

    async def aclose(self) -> None:
        await self._clients.aclose()

    def status(self) -> dict[str, Any]:
        return {
            **super().status(),
            "namespace": self.namespace,
            "server": describe_server(self._clients.url),
            "errors": self.errors,
            "breaker": self.breaker.status(),
        }
