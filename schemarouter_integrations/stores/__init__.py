"""Availability stores, answer caches and rate-limit state: in-process memory (default) and Redis
(shared by a fleet)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._answers import AnswerCache, AnswerEntry, MemoryAnswerCache
from ._base import AvailabilityMark, AvailabilityStore
from ._memory import MemoryAvailabilityStore
from ._ratelimit import MemoryRateLimiter, RateLimiterBackend

if TYPE_CHECKING:
    from ._redis import RedisAvailabilityStore
    from ._redis_answers import RedisAnswerCache
    from ._redis_ratelimit import RedisRateLimiter

__all__ = [
    "AnswerCache",
    "AnswerEntry",
    "AvailabilityMark",
    "AvailabilityStore",
    "MemoryAnswerCache",
    "MemoryAvailabilityStore",
    "MemoryRateLimiter",
    "RateLimiterBackend",
    "RedisAnswerCache",
    "RedisAvailabilityStore",
    "RedisRateLimiter",
]


def __getattr__(name: str) -> Any:
    if name == "RedisAvailabilityStore":
        from ._redis import RedisAvailabilityStore

        return RedisAvailabilityStore
    if name == "RedisAnswerCache":
        from ._redis_answers import RedisAnswerCache

        return RedisAnswerCache
    if name == "RedisRateLimiter":
        from ._redis_ratelimit import RedisRateLimiter

        return RedisRateLimiter
    raise AttributeError(name)
