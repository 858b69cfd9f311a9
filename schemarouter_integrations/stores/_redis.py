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
reloads. Peer messages for a path are ignored while a local change to it is queued or its
pub/sub echo has not come back, so an older peer change never undoes a newer local one.

``peer_grace_seconds`` (default 5 s) keeps a mark made by *another* router that much longer
in this mirror: when an outage's cooldown ends, the router that recorded it tries the path
first and the others wait for its verdict instead of all paying the failed wait together.
Set it a little above the failed wait (client timeout) plus the gap between questions.
Needs the asyncio backend (``redis.asyncio``) and the ``redis`` extra.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import threading
import uuid
from collections.abc import Mapping
from contextlib import AsyncExitStack, suppress
from typing import Any

import anyio

from ..errors import ConfigurationError, LifecycleError
from ._base import AvailabilityMark, AvailabilityStore
from ._redis_wire import (
    Entry,
    decode_entry,
    decode_message,
    describe_server,
    encode_clear,
    encode_mark,
    encode_value,
    glob_escape,
    leaf_error,
    redact,
    ttl_ms,
)

try:
    import redis.asyncio as aioredis
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff
except ImportError as exc:  # pragma: no cover - exercised by a test that hides redis
    raise ImportError(
        "RedisAvailabilityStore needs the redis client: pip install 'schemarouter-integrations[redis]'"
    ) from exc

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
        if not isinstance(namespace, str) or not namespace or any(ch.isspace() for ch in namespace):
            raise ConfigurationError("namespace must be a non-empty string without whitespace")
        timings = (peer_grace_seconds, connect_timeout_seconds, reconnect_min_seconds, reconnect_max_seconds)
        if not all(
            isinstance(t, int | float) and not isinstance(t, bool) and math.isfinite(t) for t in timings
        ):
            raise ConfigurationError("every *_seconds setting must be a finite number of seconds")
        if peer_grace_seconds < 0 or connect_timeout_seconds <= 0:
            raise ConfigurationError("peer_grace_seconds must be >= 0 and connect_timeout_seconds > 0")
        if not 0 < reconnect_min_seconds <= reconnect_max_seconds:
            raise ConfigurationError("need 0 < reconnect_min_seconds <= reconnect_max_seconds")
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
        self._mirror: dict[str, Entry] = {}
        self._pending: dict[str, AvailabilityMark | None] = {}  # None: clear
        self._inflight = 0
        self._echoes: dict[str, int] = {}  # our writes whose pub/sub echo has not come back yet
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
        entry = self._mirror.get(path)
        if entry is None:
            return None
        now = self.clock()
        if entry.mark.until > now:
            return entry.mark
        if now >= self._peer_deadline(entry):
            del self._mirror[path]
        return None

    def active(self) -> dict[str, AvailabilityMark]:
        return {path: mark for path in list(self._mirror) if (mark := self.get(path)) is not None}

    def mark_unavailable(self, mark: AvailabilityMark) -> None:
        self._mirror[mark.path] = Entry(mark, self.instance_id, mark.until)
        self._queue(mark.path, mark)

    def mark_available(self, path: str) -> bool:
        entry = self._mirror.pop(path, None)
        if entry is None:
            return False
        now = self.clock()
        was_active = entry.mark.until > now
        # our own mark may have ended here while peers still hold it for the grace period
        if was_active or now < self._peer_deadline(entry):
            self._queue(path, None)
        return was_active

    def _peer_deadline(self, entry: Entry) -> float:
        if entry.origin == self.instance_id:
            return entry.shared_until + self.peer_grace_seconds
        return entry.mark.until

    def _queue(self, path: str, mark: AvailabilityMark | None) -> None:
        self._pending.pop(path, None)
        self._pending[path] = mark
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
        while self._pending or self._inflight:
            self._drained = anyio.Event()
            await self._drained.wait()

    def status(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "shared": True,
            "connected": self._connected,
            "last_error": self._last_error,
            "marks": len(self.active()),
            "pending_writes": len(self._pending) + self._inflight,
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
        options: dict[str, Any] = {
            "decode_responses": True,
            "socket_connect_timeout": self.connect_timeout_seconds,
            "socket_timeout": max(self.connect_timeout_seconds, 5.0),
            "health_check_interval": 10,
            "retry": Retry(NoBackoff(), 0),
            **self._client_options,
        }
        client = aioredis.Redis.from_url(self._url, **options)
        pubsub = client.pubsub()
        self._echoes.clear()
        try:
            await pubsub.subscribe(self.channel)
            await self._push_local(client)
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
                group.start_soon(self._writer, client)
        finally:
            with anyio.CancelScope(shield=True):
                for closing in (pubsub, client):
                    with suppress(Exception):
                        await closing.aclose()

    async def _push_local(self, client: Any) -> None:
        """Write queued changes, then re-share active marks that Redis may have lost."""
        while self._pending:
            path = next(iter(self._pending))
            await self._write_one(client, path)
        now = self.clock()
        for path, entry in list(self._mirror.items()):
            left_ms = ttl_ms(entry.shared_until, now)
            if left_ms <= 0 or path in self._pending:
                continue
            value = encode_value(entry.mark, entry.origin)
            if await client.set(self.key_prefix + path, value, px=left_ms, nx=True):
                if entry.origin == self.instance_id:
                    self._echoes[path] = self._echoes.get(path, 0) + 1
                await client.publish(self.channel, encode_mark(entry.mark, entry.origin, left_ms))

    async def _load(self, client: Any) -> int:
        """Replace the mirror with the marks in Redis (local changes still queued stay)."""
        keys = [key async for key in client.scan_iter(match=glob_escape(self.key_prefix) + "*", count=500)]
        loaded: dict[str, Entry] = {}
        if keys:
            pipe = client.pipeline(transaction=False)
            for key in keys:
                pipe.get(key)
                pipe.pttl(key)
            replies = await pipe.execute()
            for key, value, ttl_ms in zip(keys, replies[0::2], replies[1::2], strict=True):
                entry = self._entry(key[len(self.key_prefix) :], value, ttl_ms)
                if entry is not None:
                    loaded[entry.mark.path] = entry
        for path, entry in self._mirror.items():
            if path in self._pending and self._pending[path] is not None:
                loaded[path] = entry
            elif path in self._pending:
                loaded.pop(path, None)
        self._mirror = loaded
        return len(loaded)

    async def _reader(self, pubsub: Any) -> None:
        while True:
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            if message is not None and message.get("type") == "message":
                self._apply(message.get("data"))

    async def _writer(self, client: Any) -> None:
        while True:
            if not self._pending:
                self._wakeup = anyio.Event()
                with anyio.move_on_after(0.2):
                    await self._wakeup.wait()
                continue
            await self._write_one(client, next(iter(self._pending)))

    async def _write_one(self, client: Any, path: str) -> None:
        mark = self._pending.pop(path)
        self._inflight += 1
        try:
            pipe = client.pipeline(transaction=True)
            if mark is None:
                pipe.delete(self.key_prefix + path)
                pipe.publish(self.channel, encode_clear(path, self.instance_id))
            else:
                left_ms = ttl_ms(mark.until, self.clock())
                if left_ms <= 0:
                    return
                pipe.set(self.key_prefix + path, encode_value(mark, self.instance_id), px=left_ms)
                pipe.publish(self.channel, encode_mark(mark, self.instance_id, left_ms))
            self._echoes[path] = self._echoes.get(path, 0) + 1
            await pipe.execute()
        except BaseException:
            self._pending.setdefault(path, mark)  # a newer local change wins
            raise
        finally:
            self._inflight -= 1
            if not self._pending and not self._inflight and self._drained is not None:
                self._drained.set()

    def _apply(self, data: Any) -> None:
        """Apply a change published by another router to the mirror."""
        message = decode_message(data)
        if message is None:
            logger.debug("ignored a malformed message on %s", self.channel)
            return
        path = message["path"]
        if message["origin"] == self.instance_id:
            left = self._echoes.get(path, 0) - 1
            if left > 0:
                self._echoes[path] = left
            else:
                self._echoes.pop(path, None)
            return
        if path in self._pending or path in self._echoes:
            return  # a newer local change is queued or on its way
        if message["op"] == "clear":
            self._mirror.pop(path, None)
        elif (entry := self._entry(path, message, message.get("ttl_ms"))) is not None:
            self._mirror[path] = entry

    def _entry(self, path: str, value: Any, ttl_ms: Any) -> Entry | None:
        return decode_entry(
            path, value, ttl_ms, now=self.clock(), own_id=self.instance_id, grace=self.peer_grace_seconds
        )
