"""GCRA shared by a fleet: one Lua script on Redis reads, decides and writes atomically.

Key ``<ns>:ratelimit:<key>`` holds the TAT in microseconds on Redis's own clock (``TIME``),
so workers on different hosts need no synchronised clocks; it expires once the bucket is
full again. While Redis cannot be asked (an error, or the breaker of ``_breaker.py`` open
after a few errors in a row), each process keeps its share of the limit alone: a local GCRA
at ``per_second / fleet_size`` with a burst of ``burst / fleet_size`` (at least one call),
starting empty, so the fleet as a whole stays within the limit when ``fleet_size`` is the
number of processes sharing it and ``burst >= fleet_size``.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from ._breaker import Breaker
from ._ratelimit import RateLimiterBackend, gcra_reserve
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
        fleet_size: int = 1,
    ) -> None:
        if isinstance(fleet_size, bool) or not isinstance(fleet_size, int) or fleet_size < 1:
            raise ValueError(f"fleet_size must be a whole number of processes, 1 or more, got {fleet_size!r}")
        self.fleet_size = fleet_size
        """How many processes share the limit: each keeps ``1 / fleet_size`` of it while Redis is away."""
        self._local: dict[str, float] = {}  # key -> the local TAT while Redis cannot be asked
        self.local_calls = 0
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
            return self._alone(key, per_second, burst, max_wait)
        try:
            waited = await self._clients.current().eval(GCRA_SCRIPT, 1, self.prefix + key, *args)
        except Exception as exc:
            self.breaker.failed()
            self.errors += 1
            self.last_error = redact(self._clients.url, f"{type(exc).__name__}: {exc}")
            logger.warning("rate limit on Redis failed (this process keeps its share): %s", self.last_error)
            return self._alone(key, per_second, burst, max_wait)
        self.breaker.succeeded()
        self._local.pop(key, None)  # the next time Redis is away, the local share starts empty
        micros = int(waited)
        return None if micros < 0 else micros / 1_000_000

    def _alone(self, key: str, per_second: float, burst: float, max_wait: float) -> float | None:
        """This process's share of the limit, kept locally while Redis cannot be asked."""
        share, share_burst = per_second / self.fleet_size, max(1.0, burst / self.fleet_size)
        now = time.monotonic()
        tat = self._local.get(key)
        if tat is None:  # start empty: the fleet may have used the whole burst on Redis just now
            tat = now + share_burst / share
        wait, new_tat = gcra_reserve(tat, now, share, share_burst, max_wait)
        if new_tat is not None:
            self._local[key] = new_tat
            self.local_calls += 1
        return wait

    async def aclose(self) -> None:
        await self._clients.aclose()

    def status(self) -> dict[str, Any]:
        return {
            **super().status(),
            "namespace": self.namespace,
            "server": describe_server(self._clients.url),
            "errors": self.errors,
            "breaker": self.breaker.status(),
            "fleet_size": self.fleet_size,
            "local_calls": self.local_calls,
        }
