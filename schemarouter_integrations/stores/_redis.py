"""Cooldowns shared through Redis: one outage, paid for once by the whole fleet.

Marks are Redis keys with a TTL (Redis does the expiry) and every change is published on a
channel in the namespace (layout in ``_redis_wire.py``). Each router keeps a local mirror
that planning reads without I/O; remaining TTLs become deadlines on the router's own
monotonic clock. Sync ``mark_unavailable``/``mark_available`` change the mirror at once and
queue the write for a background writer. ``start()`` subscribes, pushes what was marked
locally and loads the marks already there (``SCAN`` + ``PTTL``) before it returns (bounded
by the connect timeout). When Redis is unreachable the router keeps routing on its mirror,
says so in ``status()`` and the log, and reconnects with backoff; on reconnect it writes
the changes queued meanwhile, pushes its active marks (``NX``: marks in Redis win) and
reloads. Every change is versioned (hybrid logical clock, see ``_redis_wire.py``) and
written by a compare-and-set script: the newer change of a path wins in Redis and in every
mirror, and a reopen leaves a tombstone, so an older mark can never come back, whichever
router reconnects first after an outage.

``peer_grace_seconds`` (default 5 s) keeps a mark made by *another* router that much longer
in this mirror: when an outage's cooldown ends, the router that recorded it tries the path
first and the others wait for its verdict instead of all paying the failed wait together.
Set it a little above the failed wait (client timeout) plus the gap between questions.
Needs the asyncio backend (``redis.asyncio``) and the ``redis`` extra.
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
import uuid
from collections.abc import Mapping
from contextlib import AsyncExitStack, suppress
from typing import Any

import anyio

from .._lazy import extra_needed
from ..errors import ConfigurationError, LifecycleError
from ._base import AvailabilityMark, AvailabilityStore
from ._redis_mirror import VersionedMirror
from ._redis_sync import check_settings, check_url, client_options, load_entries, write_entry
from ._redis_wire import CAS_SCRIPT, Entry, decode_entry, decode_message, describe_server, leaf_error, redact

with extra_needed("redis", "RedisAvailabilityStore needs the redis client"):
    import redis.asyncio as aioredis

__all__ = ["RedisAvailabilityStore"]

logger = logging.getLogger("schemarouter_integrations.stores.redis")


class RedisAvailabilityStore(AvailabilityStore):
    """Availability marks shared by every router on the same Redis and namespace."""

    kind = "redis"

    def __init__(
        self,
        url: str,
        namespace: str = "schemarouter",
        *,
        peer_grace_seconds: float = 5.0,
        connect_timeout_seconds: float = 2.0,
        reconnect_min_seconds: float = 0.1,
        reconnect_max_seconds: float = 5.0,
        client_options: Mapping[str, Any] | None = None,
    ) -> None:
        timings = (peer_grace_seconds, connect_timeout_seconds, reconnect_min_seconds, reconnect_max_seconds)
        check_settings(namespace, timings)
        if peer_grace_seconds < 0 or connect_timeout_seconds <= 0:
            raise ConfigurationError("peer_grace_seconds must be >= 0 and connect_timeout_seconds > 0")
        if not 0 < reconnect_min_seconds <= reconnect_max_seconds:
            raise ConfigurationError("need 0 < reconnect_min_seconds <= reconnect_max_seconds")
        check_url(url)
        self._url = url
        self.namespace = namespace
        self.peer_grace_seconds = float(peer_grace_seconds)
        self.connect_timeout_seconds = float(connect_timeout_seconds)
        self.reconnect_min_seconds = float(reconnect_min_seconds)
        self.reconnect_max_seconds = float(reconnect_max_seconds)
        self._client_options = dict(client_options or {})
        self.instance_id = uuid.uuid4().hex[:16]
        self.key_prefix = f"{namespace}:cooldown:"
        self.channel = f"{namespace}:cooldowns"
        self._mirror = VersionedMirror(self.instance_id, self.peer_grace_seconds)
        self._inflight = 0
        self._connected = False
        self._last_error: str | None = None
        self._reconnects = 0
        self._wakeup: anyio.Event | None = None
        self._drained: anyio.Event | None = None
        self._first_attempt: anyio.Event | None = None
        self._loop_thread: int | None = None
        self._stack: AsyncExitStack | None = None
        self._group: anyio.abc.TaskGroup | None = None

    # -- the local view (sync, no I/O) --------------------------------------------------
    def get(self, path: str) -> AvailabilityMark | None:
        return self._mirror.get(path, self.clock())

    def active(self) -> dict[str, AvailabilityMark]:
        return self._mirror.active(self.clock())

    def shared_until(self, path: str) -> float | None:
        if self._mirror.get(path, self.clock()) is None:
            return None
        entry = self._mirror.entries.get(path)
        return None if entry is None else entry.shared_until

    def mark_unavailable(self, mark: AvailabilityMark) -> None:
        self._mirror.mark(mark)
        self._wake_writer()

    def mark_available(self, path: str) -> bool:
        was_active, tombstone = self._mirror.clear(path, self.clock())
        if tombstone is not None:
            self._wake_writer()
        return was_active

    def _wake_writer(self) -> None:
        wakeup = self._wakeup
        # from another thread (e.g. ``invoke_sync``) the writer notices within its poll
        if wakeup is not None and threading.get_ident() == self._loop_thread:
            wakeup.set()

    # -- lifecycle -------------------------------------------------------------------
    async def start(self) -> None:
        """Connect, subscribe and load the marks already in Redis, then keep them in sync.

        Returns after the first attempt (at most about ``connect_timeout_seconds``); when
        Redis is unreachable the store keeps retrying in the background. No-op when started.
        """
        if self._stack is not None:
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            raise LifecycleError("RedisAvailabilityStore needs the asyncio backend (redis.asyncio)") from None
        self._loop_thread = threading.get_ident()
        self._first_attempt = anyio.Event()
        stack = AsyncExitStack()
        group = await stack.enter_async_context(anyio.create_task_group())
        group.start_soon(self._supervise, name="schemarouter-redis-store")
        self._stack, self._group = stack, group
        with anyio.move_on_after(self.connect_timeout_seconds * 2 + 1):
            await self._first_attempt.wait()

    async def aclose(self) -> None:
        """Write what is still queued (briefly), then stop the background tasks."""
        stack, group = self._stack, self._group
        if stack is None or group is None:
            return
        if self._connected:
            with anyio.move_on_after(self.connect_timeout_seconds, shield=True):
                await self.flush()
        self._stack = self._group = None
        group.cancel_scope.cancel()
        await stack.aclose()  # the group's own scope must be the innermost one here
        self._connected = False
        self._wakeup = None

    async def flush(self) -> None:
        """Wait until every queued change is written to Redis (no bound: see the base class)."""
        while self._mirror.pending or self._inflight:
            self._drained = anyio.Event()
            await self._drained.wait()

    def status(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "shared": True,
            "connected": self._connected,
            "last_error": self._last_error,
            "marks": len(self.active()),
            "pending_writes": len(self._mirror.pending) + self._inflight,
            "reconnects": self._reconnects,
            "namespace": self.namespace,
            "server": describe_server(self._url),
            "running": self._stack is not None,
        }

    # -- background work ---------------------------------------------------------------
    async def _supervise(self) -> None:
        delay = self.reconnect_min_seconds
        attempts = 0
        while True:
            attempts += 1
            try:
                await self._session()
            except Exception as exc:
                was_connected = self._connected
                self._connected = False
                self._last_error = redact(self._url, leaf_error(exc))
                if was_connected:
                    delay = self.reconnect_min_seconds
                if was_connected or attempts == 1:
                    logger.warning(
                        "Redis availability store %s unreachable (%s); routing goes on with the "
                        "local view of %d marks; reconnecting with backoff",
                        describe_server(self._url),
                        self._last_error,
                        len(self.active()),
                    )
                else:
                    logger.debug("Redis reconnect failed: %s", self._last_error)
            finally:
                if self._first_attempt is not None:
                    self._first_attempt.set()
            await anyio.sleep(delay * random.uniform(0.8, 1.2))
            delay = min(delay * 2, self.reconnect_max_seconds)

    async def _session(self) -> None:
        options = client_options(self.connect_timeout_seconds, self._client_options)
        client = aioredis.Redis.from_url(self._url, **options)
        pubsub = client.pubsub()
        cas = client.register_script(CAS_SCRIPT)
        try:
            await pubsub.subscribe(self.channel)
            await self._push_local(cas)
            loaded = await self._load(client)
            if self._last_error is not None or self._reconnects:
                self._reconnects += 1
                logger.info("Redis availability store reconnected; %d marks after resync", loaded)
            else:
                self._reconnects = 0
            self._connected = True
            self._last_error = None
            if self._first_attempt is not None:
                self._first_attempt.set()
            async with anyio.create_task_group() as group:
                group.start_soon(self._reader, pubsub)
                group.start_soon(self._writer, cas)
        finally:
            with anyio.CancelScope(shield=True):
                for closing in (pubsub, client):
                    with suppress(Exception):
                        await closing.aclose()

    async def _push_local(self, cas: Any) -> None:
        """Write queued changes, then re-share what Redis may have lost (marks and tombstones).

        Every write is compare-and-set by version: a change older than what Redis holds is
        dropped there, so a peer's stale mark never overwrites a newer reopen.
        """
        while self._mirror.pending:
            await self._write_one(cas, next(iter(self._mirror.pending)))
        for path, entry in list(self._mirror.entries.items()):
            if path not in self._mirror.pending:
                await self._write(cas, entry)

    async def _load(self, client: Any) -> int:
        """Replace the mirror with what Redis holds; a newer local change still queued stays."""
        return self._mirror.replace(await load_entries(client, self.key_prefix, self._entry))

    async def _reader(self, pubsub: Any) -> None:
        while True:
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            if message is not None and message.get("type") == "message":
                self._apply(message.get("data"))

    async def _writer(self, cas: Any) -> None:
        while True:
            if not self._mirror.pending:
                self._wakeup = anyio.Event()
                with anyio.move_on_after(0.2):
                    await self._wakeup.wait()
                continue
            await self._write_one(cas, next(iter(self._mirror.pending)))

    async def _write_one(self, cas: Any, path: str) -> None:
        entry = self._mirror.pending.pop(path)
        self._inflight += 1
        try:
            await self._write(cas, entry)
        except BaseException:
            if path not in self._mirror.pending:  # a newer local change wins
                self._mirror.pending[path] = entry
            raise
        finally:
            self._inflight -= 1
            if not self._mirror.pending and not self._inflight and self._drained is not None:
                self._drained.set()

    async def _write(self, cas: Any, entry: Entry) -> bool:
        """Write *entry* unless Redis holds a newer change of its path; True when written."""
        return await write_entry(
            cas, entry, key_prefix=self.key_prefix, channel=self.channel, now=self.clock()
        )

    def _apply(self, data: Any) -> None:
        """Apply a published change to the mirror when it is newer than what the mirror holds
        (our own echoes and stale peers are older or equal, so they change nothing)."""
        message = decode_message(data)
        entry = None if message is None else self._entry(message["path"], message, message.get("ttl_ms"))
        if entry is None:
            logger.debug("ignored a malformed or expired message on %s", self.channel)
            return
        self._mirror.apply(entry)

    def _entry(self, path: str, value: Any, ttl_ms: Any) -> Entry | None:
        return decode_entry(
            path, value, ttl_ms, now=self.clock(), own_id=self.instance_id, grace=self.peer_grace_seconds
        )
