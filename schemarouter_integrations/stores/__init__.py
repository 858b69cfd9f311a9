"""Availability stores, answer caches and rate-limit state: in-process memory (default), one
SQLite file (shared by the processes of one host: :class:`SqliteStore`) and Redis (shared by a
fleet: :class:`RedisStore` and its parts)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes as _lazy_attributes

if TYPE_CHECKING:
    from ._answers import AnswerCache as AnswerCache
    from ._answers import AnswerEntry as AnswerEntry
    from ._answers import MemoryAnswerCache as MemoryAnswerCache
    from ._base import AvailabilityMark as AvailabilityMark
    from ._base import AvailabilityStore as AvailabilityStore
    from ._memory import MemoryAvailabilityStore as MemoryAvailabilityStore
    from ._ratelimit import MemoryRateLimiter as MemoryRateLimiter
    from ._ratelimit import RateLimiterBackend as RateLimiterBackend
    from ._redis import RedisAvailabilityStore as RedisAvailabilityStore
    from ._redis_answers import RedisAnswerCache as RedisAnswerCache
    from ._redis_ratelimit import RedisRateLimiter as RedisRateLimiter
    from ._redis_store import RedisStore as RedisStore
    from ._sqlite import SqliteStore as SqliteStore


__all__, __getattr__, __dir__ = _lazy_attributes(
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
