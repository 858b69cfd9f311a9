"""Answers shared by a fleet through Redis: one upstream call for the whole fleet.

* ``<ns>:answer:<key>``: a hash, ``v`` the entry as JSON (with the digest of its content)
  and ``t`` when Redis stored it, in microseconds on the Redis server's clock (``TIME``
  inside the script). A read returns the server's time too, so an entry's age is measured on
  one clock whatever the clocks of the hosts that wrote and read it; it expires by a server
  TTL (``PEXPIRE``). A write is stamped no later than the server's time when it was *sent*
  (the last server time read, advanced by this process's monotonic clock): a write that Redis
  runs late (a hung server resumed, a command left in its socket) is not stamped as new.
* ``<ns>:answer-lock:<key>``: the fetch lock (``SET NX PX``): one worker fetches a missing
  answer while the others wait a bounded time for the entry, then go themselves.

A value read back is untrusted: one without the shape of an answer, or not matching its
digest, is a miss. A Redis error is raised as :class:`StoreUnavailable` (the router counts it
as a miss and skips the rest of that question's cache work); after a few failures in a row a
breaker (``_breaker.py``) stops trying for a short, growing pause. Needs the ``redis`` extra.
"""

from __future__ import annotations

import json
import logging
import math
import time
import uuid
from typing import Any

from ..errors import ConfigurationError
from ._answers import AnswerCache, AnswerEntry
from ._breaker import Breaker, StoreUnavailable
from ._redis_client import OnDemandRedis
from ._redis_sync import check_namespace

__all__ = ["RedisAnswerCache"]

logger = logging.getLogger("schemarouter_integrations.stores.redis_answers")

_NOW = """local t = redis.call('TIME')
local now = string.format('%.0f', tonumber(t[1]) * 1000000 + tonumber(t[2]))
"""

PUT_SCRIPT = (
    _NOW
    + """local ttl = tonumber(ARGV[2])
if ARGV[3] ~= '' and tonumber(ARGV[3]) < tonumber(now) then
  ttl = ttl - math.floor((tonumber(now) - tonumber(ARGV[3])) / 1000)
  now = ARGV[3]
end
redis.call('DEL', KEYS[1])
if ttl < 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[1], 't', now)
redis.call('PEXPIRE', KEYS[1], ttl)
return 1
"""
)
"""Store ARGV[1] stamped on the server's clock, kept ARGV[2] milliseconds; ARGV[3] (or ``''``)
is the latest stamp the write may have: the server's time when it was sent, estimated. A write
run later is stamped then, and kept that much less (not at all when its time has passed)."""

GET_SCRIPT = (
    _NOW
    + """if redis.call('TYPE', KEYS[1]).ok ~= 'hash' then return {false, false, now} end
local found = redis.call('HMGET', KEYS[1], 'v', 't')
return {found[1], found[2], now}
"""
)
"""``[value, stamp, server now]`` (value and stamp nil when there is no entry)."""

_UNLOCK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class RedisAnswerCache(OnDemandRedis, AnswerCache):
    """Answers kept in Redis under *namespace*, seen by every router on it."""

    def __init__(
        self,
        url: str,
        namespace: str = "schemarouter",
        *,
        timeout_seconds: float = 2.0,
        breaker: Breaker | None = None,
    ) -> None:
        check_namespace(namespace)
        if not isinstance(timeout_seconds, int | float) or not 0 < timeout_seconds < math.inf:
            raise ConfigurationError("timeout_seconds must be a positive number of seconds")
        self._connect(url, namespace, float(timeout_seconds), breaker)
        self.prefix = f"{namespace}:answer:"
        self.lock_prefix = f"{namespace}:answer-lock:"
        self._token = uuid.uuid4().hex
        self.damaged = 0
        """Entries read back that had no answer's shape or broke their digest (misses)."""
        self._synced: tuple[int, float] | None = None
        """The last server time read (microseconds) and this process's monotonic time then."""

    async def get(self, key: str) -> AnswerEntry | None:
        found = await self._run("eval", GET_SCRIPT, 1, self.prefix + key)
        value, stamp, now = found
        self._synced = (int(now), time.monotonic())
        if value is None:
            return None
        try:
            age = max(0.0, (int(now) - int(stamp)) / 1_000_000)
            return AnswerEntry.from_json(json.loads(value), stored_at=self.now() - age)
        except (TypeError, ValueError) as exc:
            self.damaged += 1
            logger.warning("a damaged answer entry on Redis was ignored (a miss): %s", exc)
            return None

    async def put(self, key: str, entry: AnswerEntry, keep_seconds: float) -> None:
        ttl_ms = max(1, math.ceil(keep_seconds * 1000))
        sent = ""
        if self._synced is not None:  # the server's time now, by the last one read
            server, mono = self._synced
            sent = str(server + round((time.monotonic() - mono) * 1_000_000))
        await self._run("eval", PUT_SCRIPT, 1, self.prefix + key, json.dumps(entry.to_json()), ttl_ms, sent)

    async def lock(self, key: str, seconds: float) -> bool:
        px = max(1, math.ceil(seconds * 1000))
        taken = await self._run("set", self.lock_prefix + key, self._token, nx=True, px=px)
        return bool(taken)

    async def unlock(self, key: str) -> None:
        await self._run("eval", _UNLOCK, 1, self.lock_prefix + key, self._token)

    def status(self) -> dict[str, Any]:
        return {
            **super().status(),
            **self._server_status(),
            "damaged": self.damaged,
            "last_error": self.last_error,
            "breaker": self.breaker.status(),
        }

    async def _run(self, command: str, *args: Any, **options: Any) -> Any:
        """One Redis command through the breaker; a failure is :class:`StoreUnavailable`."""
        self.breaker.check()
        try:
            reply = await getattr(self._clients.current(), command)(*args, **options)
        except Exception as exc:
            self._failed(exc)
            self.breaker.failed()
            level = logging.WARNING if self.breaker.consecutive_failures == 1 else logging.DEBUG
            logger.log(level, "answer cache on Redis failed (counted as a miss): %s", self.last_error)
            raise StoreUnavailable(self.last_error) from None
        self.breaker.succeeded()
        return reply
