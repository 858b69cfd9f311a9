"""The router-level sections of a landscape file: ``[router]``, ``[availability]`` and
``[answer_cache]`` (every model forbids unknown keys)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, field_validator

from ..stores import AnswerCache, AvailabilityStore, MemoryAnswerCache, MemoryAvailabilityStore

__all__ = ["AnswerCacheSettings", "AvailabilitySettings", "RouterSettings", "build_store"]

REDIS_SCHEMES = ("redis://", "rediss://", "unix://")
SQLITE_SCHEME = "sqlite:///"


def build_store(spec: str, base: Path) -> AvailabilityStore:
    """The store of ``[router] store``: ``sqlite:///<path>`` (a relative path from *base*,
    ``sqlite:////abs/path`` absolute, ``~`` expanded) or a Redis URL (``RedisStore``)."""
    if spec.startswith(SQLITE_SCHEME):
        from ..stores import SqliteStore

        return SqliteStore(base / Path(spec[len(SQLITE_SCHEME) :]).expanduser())
    from ..stores import RedisStore

    return RedisStore(spec)


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class _StoreSection(_Model):
    """A section that names a store: ``"memory"`` or a Redis URL, and the Redis namespace."""

    store: str = "memory"
    namespace: str = Field(default="schemarouter", min_length=1)

    @field_validator("store")
    @classmethod
    def _store(cls, value: str) -> str:
        if value != "memory" and not value.startswith(REDIS_SCHEMES):
            raise ValueError("must be 'memory' or a Redis URL (redis://, rediss://, unix://)")
        return value


class AvailabilitySettings(_StoreSection):
    """``[availability]``: where cooldowns live. ``store = "memory"`` or a Redis URL."""

    peer_grace_seconds: float | None = Field(default=None, ge=0.0, allow_inf_nan=False)

    def build(self) -> AvailabilityStore:
        """The store these settings describe (Redis needs the ``redis`` extra)."""
        if self.store == "memory":
            return MemoryAvailabilityStore()
        from ..stores import RedisAvailabilityStore

        options: dict[str, Any] = {}
        if self.peer_grace_seconds is not None:
            options["peer_grace_seconds"] = self.peer_grace_seconds
        return RedisAvailabilityStore(self.store, namespace=self.namespace, **options)


class AnswerCacheSettings(_StoreSection):
    """``[answer_cache]``: where answers are kept. ``store = "memory"`` (with ``max_entries``)
    or a Redis URL (shared by the fleet, under ``namespace``)."""

    max_entries: int = Field(default=10_000, ge=1)

    def build(self) -> AnswerCache:
        """The cache these settings describe (Redis needs the ``redis`` extra)."""
        if self.store == "memory":
            return MemoryAnswerCache(max_entries=self.max_entries)
        from ..stores import RedisAnswerCache

        return RedisAnswerCache(self.store, namespace=self.namespace)


class RouterSettings(_Model):
    """``[router]``: settings of the router itself, as ``SchemaRouter(...)`` takes them.

    ``allow_private_networks`` lifts the connection rule for addresses learned from fetched
    documents (``SchemaRouter(allow_private_networks=True)``); ``document_cache`` is a folder
    (relative to the file) keeping the last good copy of every fetched document;
    ``max_hops`` is how many routers a call may have passed through before this router's
    MCP server refuses it (``SchemaRouter(max_hops=4)``).
    """

    allow_private_networks: StrictBool = False
    document_cache: str | None = Field(default=None, min_length=1)
    max_hops: StrictInt = Field(default=4, ge=1)
    store: str | None = None
    """Where cooldowns, answers and rate limits live across processes: ``sqlite:///<path>`` or
    a Redis URL (the CLI's ``--state FILE`` sets it)."""

    @field_validator("store")
    @classmethod
    def _store(cls, value: str | None) -> str | None:
        if value is not None and not (
            (value.startswith(SQLITE_SCHEME) and len(value) > len(SQLITE_SCHEME))
            or value.startswith(REDIS_SCHEMES)
        ):
            raise ValueError("must be sqlite:///<path> or a Redis URL (redis://, rediss://, unix://)")
        return value
