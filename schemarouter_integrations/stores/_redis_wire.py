"""What the Redis store writes and reads: keys, values, pub/sub messages (no I/O here).

* ``<ns>:cooldown:<tool.endpoint>``: one key per mark, written ``SET ... PX <ttl>`` so that
  Redis does the expiry; the value is JSON ``{"reason", "failures", "origin"}``.
* ``<ns>:cooldowns``: the pub/sub channel; each change is JSON ``{"op": "mark" | "clear",
  "path", "origin"}`` plus ``ttl_ms``, ``reason`` and ``failures`` for marks.

``origin`` is the writing store's random instance id. Deadlines never travel: a remaining
TTL becomes a deadline on the reader's own monotonic clock.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ._base import AvailabilityMark

_GLOB_SPECIAL = "\\*?[]"
MAX_TTL_MS = 2**53
"""The longest TTL written (about 285,000 years): far below what Redis accepts, and exact as
a float. Application marks may be very long; a TTL past Redis's limit would be refused."""


@dataclass(slots=True)
class Entry:
    """A mark in the local mirror.

    ``mark.until`` is the local deadline (peer grace included); ``shared_until`` is the
    deadline Redis holds; both are on the router's clock.
    """

    mark: AvailabilityMark
    origin: str
    shared_until: float


def ttl_ms(until: float, now: float) -> int:
    """Milliseconds from *now* to *until*, rounded up and capped at :data:`MAX_TTL_MS`."""
    return min(math.ceil((until - now) * 1000), MAX_TTL_MS)


def encode_value(mark: AvailabilityMark, origin: str) -> str:
    return json.dumps({"reason": mark.reason, "failures": mark.failures, "origin": origin})


def encode_mark(mark: AvailabilityMark, origin: str, ttl_ms: int) -> str:
    return json.dumps(
        {
            "op": "mark",
            "path": mark.path,
            "ttl_ms": ttl_ms,
            "reason": mark.reason,
            "failures": mark.failures,
            "origin": origin,
        }
    )


def encode_clear(path: str, origin: str) -> str:
    return json.dumps({"op": "clear", "path": path, "origin": origin})


def decode_message(data: Any) -> dict[str, Any] | None:
    """A published change as a dict with ``op``, ``path`` and ``origin``; None if malformed."""
    try:
        message = json.loads(data)
        if message["op"] not in ("mark", "clear"):
            return None
        message["path"] = str(message["path"])
        message["origin"] = str(message.get("origin", ""))
    except (TypeError, ValueError, KeyError):
        return None
    return message if isinstance(message, dict) else None


def decode_entry(
    path: str, value: Any, ttl_ms: Any, *, now: float, own_id: str, grace: float
) -> Entry | None:
    """The mirror entry for a value (key value or message) with *ttl_ms* left; None when
    it is malformed or already expired. Marks of other routers get *grace* more locally."""
    try:
        data = value if isinstance(value, dict) else json.loads(value)
        ttl = float(ttl_ms) / 1000
        failures = int(data.get("failures") or 1)
    except (TypeError, ValueError, AttributeError):
        return None
    if not ttl > 0:
        return None
    origin = str(data.get("origin", ""))
    reason = data.get("reason")
    mark = AvailabilityMark(
        path=path,
        until=now + ttl + (0.0 if origin == own_id else grace),
        reason=str(reason) if reason is not None else None,
        failures=max(failures, 1),
    )
    return Entry(mark, origin, now + ttl)


def leaf_error(exc: BaseException) -> str:
    """``Type: message`` of the first leaf of an exception (group)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return f"{type(exc).__name__}: {exc}"[:300]


def describe_server(url: str) -> str:
    """``scheme://host:port/db`` without user name or password."""
    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path}"


def redact(url: str, text: str) -> str:
    """*text* with the URL's password masked."""
    password = urlsplit(url).password
    return text.replace(password, "***") if password else text


def glob_escape(text: str) -> str:
    """*text* as a literal inside a Redis ``MATCH`` pattern."""
    return "".join("\\" + ch if ch in _GLOB_SPECIAL else ch for ch in text)
