"""Cooldowns shared through Redis (not implemented yet)."""

from __future__ import annotations

from .memory import MemoryAvailabilityStore


class RedisAvailabilityStore(MemoryAvailabilityStore):
    def __init__(self, url: str, namespace: str = "schemarouter") -> None:
        raise NotImplementedError("RedisAvailabilityStore is not implemented yet")
