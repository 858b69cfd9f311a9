"""What the Redis store writes and reads: keys, values, pub/sub messages (no I/O here).

* ``<ns>:cooldown:<tool.endpoint>``: one key per path, written with a TTL so that Redis does
  the expiry; the value is JSON ``{"reason", "failures", "origin", "version", "cleared"}``.
  A mark has ``cleared: false``; a reopen leaves a *tombstone* (``cleared: true``) that lives
  as long as the mark it ended could still be held somewhere, so a peer that missed the
  reopen cannot push the old mark back.
* ``<ns>:cooldowns``: the pub/sub channel; each change is JSON ``{"op": "mark" | "clear",
  "path", "origin", "version", "ttl_ms"}`` plus ``reason`` and ``failures`` for marks.

Every change carries a ``version``, ``[microseconds, origin]`` from a hybrid logical clock
(wall time, never behind any version the store has seen): the newer change of a path wins,
in Redis (written by a compare-and-set script, :data:`CAS_SCRIPT`) and in every mirror,
whichever router reconnects first after an outage. ``origin`` is the writing store's random
instance id. Deadlines never travel: a remaining TTL becomes a deadline on the reader's own
monotonic clock.
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


Version = tuple[int, str]
"""``(microseconds since the epoch, origin)``: compared as a tuple, newer wins."""
NO_VERSION: Version = (0, "")

CAS_SCRIPT = """
local current = redis.call('GET', KEYS[1])
if current then
  local ok, data = pcall(cjson.decode, current)
  if ok and type(data) == 'table' and type(data.version) == 'table' then
    local us, origin = tonumber(data.version[1]) or 0, tostring(data.version[2] or '')
    local mine = tonumber(ARGV[2])
    if us > mine or (us == mine and origin >= ARGV[3]) then
      return 0
    end
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[4])
redis.call('PUBLISH', KEYS[2], ARGV[5])
return 1
"""
"""Write a path's value only when it is newer than the stored one, and publish the change.

KEYS: the path's key, the channel. ARGV: value, version microseconds, version origin, TTL
in milliseconds, message. Returns 1 when written, 0 when a newer change was already there."""


@dataclass(slots=True)
class Entry:
    """A path in the local mirror: a mark, or the tombstone of a reopen (``cleared``).

    ``mark.until`` is the local deadline (peer grace included); ``shared_until`` is the
    deadline Redis holds; both are on the router's clock. ``version`` orders changes.
    """

    mark: AvailabilityMark
    origin: str
    shared_until: float
    version: Version = NO_VERSION
    cleared: bool = False


def ttl_ms(until: float, now: float) -> int:
    """Milliseconds from *now* to *until*, rounded up and capped at :data:`MAX_TTL_MS`."""
    return min(math.ceil((until - now) * 1000), MAX_TTL_MS)


def encode_value(entry: Entry) -> str:
    """The key's value for a mark or a tombstone."""
    return json.dumps(
        {
            "reason": None if entry.cleared else entry.mark.reason,
            "failures": entry.mark.failures,
            "origin": entry.origin,
            "version": list(entry.version),
            "cleared": entry.cleared,
        }
    )


def encode_message(entry: Entry, ttl_ms: int) -> str:
    """The pub/sub message announcing *entry* (``op`` ``mark`` or ``clear``)."""
    message: dict[str, Any] = {
        "op": "clear" if entry.cleared else "mark",
        "path": entry.mark.path,
        "ttl_ms": ttl_ms,
        "origin": entry.origin,
        "version": list(entry.version),
    }
    if not entry.cleared:
        message["reason"] = entry.mark.reason
        message["failures"] = entry.mark.failures
    return json.dumps(message)


def decode_version(value: Any) -> Version:
    """A stored or published version; :data:`NO_VERSION` when absent or malformed."""
    if isinstance(value, list | tuple) and len(value) == 2:
        try:
            return (int(value[0]), str(value[1]))
        except (TypeError, ValueError):
            return NO_VERSION
    return NO_VERSION


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
    cleared = bool(data.get("cleared")) or data.get("op") == "clear"
    mark = AvailabilityMark(
        path=path,
        until=now + ttl + (0.0 if origin == own_id or cleared else grace),
        reason=str(reason) if reason is not None else None,
        failures=max(failures, 1),
    )
    return Entry(mark, origin, now + ttl, decode_version(data.get("version")), cleared)


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
