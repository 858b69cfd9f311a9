"""GCRA shared by a fleet: one Lua script on Redis reads, decides and writes atomically.

Key ``<ns>:ratelimit:<key>`` holds the TAT in microseconds on Redis's own clock (``TIME``),
so workers on different hosts need no synchronised clocks; it expires once the bucket is
full again. While Redis cannot be asked (an error, or the breaker of ``_breaker.py`` open
after a few errors in a row), each process keeps its share of the limit alone
(``_ratelimit_share.py``: ``per_second / fleet_size``, burst ``burst / fleet_size``). The
first call back on Redis adds what the share still counts to the TAT and opens a handover
(key ``<ns>:ratelimit-handover:<key>``, on Redis's clock) during which every process's
calls pass both Redis and its share, until the other processes' breakers have let them
back. The fleet as a whole stays within the limit when ``fleet_size`` is the number of
processes sharing it and ``burst >= fleet_size``.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from ._breaker import Breaker
from ._ratelimit import RateLimiterBackend
from ._ratelimit_share import LocalShare, share_of
from ._redis_client import OnDemandRedis

__all__ = ["RedisRateLimiter"]

logger = logging.getLogger("schemarouter_integrations.stores.redis_ratelimit")

GCRA_SCRIPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1])
local tolerance = tonumber(ARGV[2])
local max_wait = tonumber(ARGV[3])
local debt = tonumber(ARGV[4])
local handover = tonumber(ARGV[5])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
tat = tat + debt
local handover_until = tonumber(redis.call('GET', KEYS[2]) or '0')
if handover > 0 and now + handover > handover_until then
  handover_until = now + handover
  redis.call('SET', KEYS[2], string.format('%.0f', handover_until), 'PX', math.ceil(handover / 1000) + 1)
end
local left = handover_until - now
if left < 0 then left = 0 end
local wait = tat - tolerance - now
if wait < 0 then wait = 0 end
if wait > max_wait then
  if debt > 0 then
    redis.call('SET', KEYS[1], string.format('%.0f', tat), 'PX', math.ceil((tat - now) / 1000) + 1)
  end
  return {-1, left}
end
local new_tat = tat + interval
redis.call('SET', KEYS[1], string.format('%.0f', new_tat), 'PX', math.ceil((new_tat - now) / 1000) + 1)
return {wait, left}
"""
"""ARGV (microseconds): emission interval, burst tolerance ``(B - 1) * T``, max wait, the debt
added to the TAT first, a handover to open (0: none). Returns the wait (-1 when it would pass
the max wait: nothing reserved, the debt kept) and the handover left."""


class RedisRateLimiter(OnDemandRedis, RateLimiterBackend):
    """Rate limits shared by every router on the same Redis and namespace."""

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
        self._shares: dict[str, LocalShare] = {}
        self.local_calls = 0
        self.handover_calls = 0
        self.returns = 0
        self.share_refusals = 0
        self._connect(url, namespace, timeout_seconds, breaker)
        self.prefix = f"{namespace}:ratelimit:"
        self.handover_prefix = f"{namespace}:ratelimit-handover:"

    def handover_seconds(self, alone_seconds: float) -> float:
        """How long calls pass both Redis and the share after *alone_seconds* away from Redis.

        The other processes saw the same outage: their breakers' pauses (doubling from the
        first) are at most the outage plus the first pause; twice the outage leaves a margin.
        """
        breaker = self.breaker
        return min(breaker.max_pause_seconds, breaker.first_pause_seconds + 2.0 * alone_seconds)

    async def reserve(self, key: str, per_second: float, burst: float, max_wait: float) -> float | None:
        now = time.monotonic()
        share = self._shares.setdefault(key, LocalShare())
        if self.breaker.state == "open":
            self.breaker.skipped += 1
            return self._alone(share, now, per_second, burst, max_wait)
        rate, share_burst = share_of(per_second, burst, self.fleet_size)
        if share.full_until(now, rate, share_burst) - now > max_wait and share.local_since is None:
            self.share_refusals += 1
            return None  # in a handover, a Redis turn its share would refuse goes to another process
        since, debt, handover = share.local_since, 0.0, 0.0
        if since is not None:  # back from deciding alone: this call pays the share's debt
            share.local_since = None
            debt, handover = share.debt(now, self.fleet_size), self.handover_seconds(now - since)
            share.handover_until = max(share.handover_until, now + handover)
        interval = 1_000_000.0 / per_second
        args = (
            round(interval),
            round((burst - 1.0) * interval),
            round(max_wait * 1_000_000),
            round(debt * 1_000_000),
            round(handover * 1_000_000),
        )
        keys = (self.prefix + key, self.handover_prefix + key)
        try:
            answer = await self._clients.current().eval(GCRA_SCRIPT, 2, *keys, *args)
        except Exception as exc:
            self.breaker.failed()
            logger.warning("rate limit on Redis failed (this process keeps its share): %s", self._failed(exc))
            if since is not None and share.local_since is None:
                share.local_since = since  # the debt is still owed
            return self._alone(share, time.monotonic(), per_second, burst, max_wait)
        self.breaker.succeeded()
        self.returns += since is not None
        return self._decided(share, now, int(answer[0]), int(answer[1]), (per_second, burst, max_wait))

    def _decided(
        self, share: LocalShare, now: float, micros: int, left: int, limit: tuple[float, float, float]
    ) -> float | None:
        """Redis's answer, and the share's too during a handover."""
        if micros < 0:
            return None
        wait = micros / 1_000_000
        per_second, burst, max_wait = limit
        if left > 0 or now < share.handover_until:
            rate, share_burst = share_of(per_second, burst, self.fleet_size)
            both = share.reserve(now, now + wait, rate, share_burst, max_wait)
            if both is None:
                return None  # the Redis turn goes unused: the fleet sends fewer, never more
            self.handover_calls += 1
            wait = both
        else:
            share.tat = None  # the handover is over: the next outage starts the share empty
        share.pending(now)
        share.granted.append(now + wait)
        return wait

    def _alone(
        self, share: LocalShare, now: float, per_second: float, burst: float, max_wait: float
    ) -> float | None:
        """This process's share of the limit, kept locally while Redis cannot be asked."""
        if share.local_since is None:
            share.local_since = now
        rate, share_burst = share_of(per_second, burst, self.fleet_size)
        wait = share.reserve(now, now, rate, share_burst, max_wait)
        if wait is not None:
            self.local_calls += 1
        return wait

    def status(self) -> dict[str, Any]:
        return {
            **super().status(),
            **self._server_status(),
            "breaker": self.breaker.status(),
            "fleet_size": self.fleet_size,
            "local_calls": self.local_calls,
            "handover_calls": self.handover_calls,
            "returns": self.returns,
            "share_refusals": self.share_refusals,
        }
