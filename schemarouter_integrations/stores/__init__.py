"""Availability stores: in-process memory (default) and Redis (shared)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._base import AvailabilityMark, AvailabilityStore
from ._memory import MemoryAvailabilityStore

if TYPE_CHECKING:
    from ._redis import RedisAvailabilityStore

__all__ = [
    "AvailabilityMark",
    "AvailabilityStore",
    "MemoryAvailabilityStore",
    "RedisAvailabilityStore",
]


def __getattr__(name: str) -> Any:
    if name == "RedisAvailabilityStore":
        from ._redis import RedisAvailabilityStore

        return RedisAvailabilityStore
    raise AttributeError(name)
