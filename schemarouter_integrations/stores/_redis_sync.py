"""The Redis stores' settings checked at construction, and the availability store's Redis
session without its state: the client's options, every mark loaded, one change written compare-and-set.

Imports the redis client only when called, so :mod:`._redis` names the missing extra first.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from ..errors import ConfigurationError
from ._redis_wire import Entry, encode_message, encode_value, glob_escape, redact, ttl_ms

__all__ = ["check_namespace", "check_settings", "check_url", "client_options", "load_entries", "write_entry"]


def check_namespace(namespace: object) -> None:
    """Refuse a namespace that is empty, no string, or holds white space (it is part of keys)."""
    if not isinstance(namespace, str) or not namespace or any(ch.isspace() for ch in namespace):
        raise ConfigurationError("namespace must be a non-empty string without whitespace")


def check_settings(namespace: object, timings: tuple[object, ...]) -> None:
    """Refuse a bad namespace and any ``*_seconds`` setting that is no finite number."""
    check_namespace(namespace)
    if not all(isinstance(t, int | float) and not isinstance(t, bool) and math.isfinite(t) for t in timings):
        raise ConfigurationError("every *_seconds setting must be a finite number of seconds")


def check_url(url: object) -> None:
    """Refuse, at construction, a URL the Redis client can never connect with."""
    if not isinstance(url, str):
        raise ConfigurationError(f"the Redis URL must be a string, got {type(url).__name__}")
    from urllib.parse import urlsplit

    from redis.asyncio.connection import parse_url

    try:
        urlsplit(url).port  # noqa: B018 - a port that is no number raises here
        parse_url(url)
    except ValueError as exc:
        shown = redact(url, url)
        raise ConfigurationError(f"not a usable Redis URL ({shown}): {exc}") from None


def client_options(connect_timeout_seconds: float, given: Mapping[str, Any]) -> dict[str, Any]:
    """The client's options: one attempt per command (the store reconnects with its own
    backoff), the application's *given* options over them."""
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff

    return {
        "decode_responses": True,
        "socket_connect_timeout": connect_timeout_seconds,
        "socket_timeout": max(connect_timeout_seconds, 5.0),
        "health_check_interval": 10,
        "retry": Retry(NoBackoff(), 0),
        **given,
    }


async def load_entries(
    client: Any, key_prefix: str, entry: Callable[[str, Any, Any], Entry | None]
) -> dict[str, Entry]:
    """Every mark and tombstone under *key_prefix* (``SCAN``, then ``GET`` + ``PTTL`` in one
    pipeline), read by *entry* from its path, value and remaining TTL."""
    keys = [key async for key in client.scan_iter(match=glob_escape(key_prefix) + "*", count=500)]
    loaded: dict[str, Entry] = {}
    if keys:
        pipe = client.pipeline(transaction=False)
        for key in keys:
            pipe.get(key)
            pipe.pttl(key)
        replies = await pipe.execute()
        for key, value, left_ms in zip(keys, replies[0::2], replies[1::2], strict=True):
            found = entry(key[len(key_prefix) :], value, left_ms)
            if found is not None:
                loaded[found.mark.path] = found
    return loaded


async def write_entry(cas: Any, entry: Entry, *, key_prefix: str, channel: str, now: float) -> bool:
    """Write *entry* unless Redis holds a newer change of its path; True when written."""
    left_ms = ttl_ms(entry.shared_until, now)
    if left_ms <= 0:
        return False
    written = await cas(
        keys=[key_prefix + entry.mark.path, channel],
        args=[
            encode_value(entry),
            entry.version[0],
            entry.version[1],
            left_ms,
            encode_message(entry, left_ms),
        ],
    )
    return bool(written)
