"""Answers shared by a fleet through Redis: one upstream call for the whole fleet.

* ``<ns>:answer:<key>``: the entry as JSON, written with a TTL (``PX``) so that Redis does the
  expiry; ``stored_at`` is wall time (seconds since the epoch), so ages agree across hosts.
* ``<ns>:answer-lock:<key>``: the fetch lock (``SET NX PX``): one worker fetches a missing
  answer while the others wait a bounded time for the entry, then go themselves.

Any Redis error counts as a miss (and a lock not taken counts as taken by nobody), so an
unreachable Redis costs upstream calls, never answers. Needs the ``redis`` extra.
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
from ._redis_client import LoopClients
from ._redis_wire import describe_server, redact

__all__ = ["RedisAnswerCache"]

logger = logging.getLogger("schemarouter_integrations.stores.redis_answers")

_UNLOCK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class RedisAnswerCache(AnswerCache):
    """Answers kept in Redis under *namespace*, seen by every router on it."""

    kind = "redis"
    shared = True

    def __init__(self, url: str, namespace: str = "schemarouter", *, timeout_seconds: float = 2.0) -> None:
        if not isinstance(namespace, str) or not namespace or any(ch.isspace() for ch in namespace):
            raise ConfigurationError("namespace must be a non-empty string without whitespace")
        if not isinstance(timeout_seconds, int | float) or not 0 < timeout_seconds < math.inf:
            raise ConfigurationError("timeout_seconds must be a positive number of seconds")
        self._clients = LoopClients(url, float(timeout_seconds))
        self.namespace = namespace
        self.prefix = f"{namespace}:answer:"
        self.lock_prefix = f"{namespace}:answer-lock:"
        self._token = uuid.uuid4().hex
        self.errors = 0
        self.last_error: str | None = None

    def now(self) -> float:
        return time.time()

    async def get(self, key: str) -> AnswerEntry | None:
        try:
            raw = await self._clients.current().get(self.prefix + key)
            return None if raw is None else AnswerEntry.from_json(json.loads(raw))
        except Exception as exc:
            self._failed(exc)
            return None

    async def put(self, key: str, entry: AnswerEntry, keep_seconds: float) -> None:
        ttl_ms = max(1, math.ceil(keep_seconds * 1000))
        try:
            await self._clients.current().set(self.prefix + key, json.dumps(entry.to_json()), px=ttl_ms)
        except Exception as exc:
            self._failed(exc)

    async def lock(self, key: str, seconds: float) -> bool:
        try:
            taken = await self._clients.current().set(
                self.lock_prefix + key, self._token, nx=True, px=max(1, math.ceil(seconds * 1000))
            )
            return bool(taken)
        except Exception as exc:
            self._failed(exc)
            return True  # nobody can be waited for: go upstream

    async def unlock(self, key: str) -> None:
        try:
            await self._clients.current().eval(_UNLOCK, 1, self.lock_prefix + key, self._token)
        except Exception as exc:
            self._failed(exc)

    async def aclose(self) -> None:
        await self._clients.aclose()

    def status(self) -> dict[str, Any]:
        return {
            **super().status(),
            "namespace": self.namespace,
            "server": describe_server(self._clients.url),
            "errors": self.errors,
            "last_error": self.last_error,
        }

    def _failed(self, exc: Exception) -> None:
        self.errors += 1
        self.last_error = redact(self._clients.url, f"{type(exc).__name__}: {exc}")
        logger.warning("answer cache on Redis failed (counted as a miss): %s", self.last_error)
