"""Availability stores: in-process memory (default) and Redis (shared)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .base import AvailabilityMark, AvailabilityStore
from .memory import MemoryAvailabilityStore

if TYPE_CHECKING:
    from .redis import RedisAvailabilityStore

__all__ = [
    "AvailabilityMark",
    "AvailabilityStore",
    "MemoryAvailabilityStore",
    "RedisAvailabilityStore",
]


def __getattr__(name: str) -> Any:
    if name == "RedisAvailabilityStore":
        from .redis import RedisAvailabilityStore

        return RedisAvailabilityStore
    raise AttributeError(name)
