"""``RedisStore``: cooldowns, answers and rate limits of a fleet on one Redis, as one object."""

from __future__ import annotations

from typing import Any

from ._redis import RedisAvailabilityStore
from ._redis_answers import RedisAnswerCache
from ._redis_ratelimit import RedisRateLimiter

__all__ = ["RedisStore"]


class RedisStore(RedisAvailabilityStore):
    """The Redis counterpart of :class:`~.SqliteStore`: the availability store of *url* and
    *namespace*, with that namespace's answer cache (``.answers``) and rate limiter
    (``.rate_limits``)::

        store = RedisStore("redis://127.0.0.1:6379/0", namespace="prod")
        router = SchemaRouter(availability_store=store, answer_cache=store.answers,
                              rate_limiter=store.rate_limits)
    """

    def __init__(self, url: str, namespace: str = "schemarouter", **options: Any) -> None:
        super().__init__(url, namespace, **options)
        self.answers = RedisAnswerCache(url, namespace)
        """The answer cache on this Redis and namespace."""
        self.rate_limits = RedisRateLimiter(url, namespace)
        """The rate limiter on this Redis and namespace."""
