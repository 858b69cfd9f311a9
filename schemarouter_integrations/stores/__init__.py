"""Availability stores, answer caches and rate-limit state: in-process memory (default), one
SQLite file (shared by the processes of one host: :class:`SqliteStore`) and Redis (shared by a
fleet: :class:`RedisStore` and its parts)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes as _lazy_attributes

if TYPE_CHECKING:
    from ._answers import AnswerCache, AnswerEntry, MemoryAnswerCache
    from ._base import AvailabilityMark, AvailabilityStore
    from ._memory import MemoryAvailabilityStore
    from ._ratelimit import MemoryRateLimiter, RateLimiterBackend
    from ._redis import RedisAvailabilityStore
    from ._redis_answers import RedisAnswerCache
    from ._redis_ratelimit import RedisRateLimiter
    from ._redis_store import RedisStore
    from ._sqlite import SqliteStore

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
    "RedisStore",
    "SqliteStore",
]


__getattr__, __dir__ = _lazy_attributes(
    globals(),
    {
        "._answers": ("AnswerCache", "AnswerEntry", "MemoryAnswerCache"),
        "._base": ("AvailabilityMark", "AvailabilityStore"),
        "._memory": ("MemoryAvailabilityStore",),
        "._ratelimit": ("MemoryRateLimiter", "RateLimiterBackend"),
        "._redis": ("RedisAvailabilityStore",),  # the redis extra: imported only when named
        "._redis_answers": ("RedisAnswerCache",),
        "._redis_ratelimit": ("RedisRateLimiter",),
        "._redis_store": ("RedisStore",),
        "._sqlite": ("SqliteStore",),
    },
)
