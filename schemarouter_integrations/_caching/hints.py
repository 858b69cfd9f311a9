"""Caching hints of an answer: from the route's HTTP headers, or from a custom invoker."""

from __future__ import annotations

import email.utils
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

_MAX_AGE = re.compile(r"(?:^|,)\s*max-age\s*=\s*\"?(\d+)\"?\s*(?:,|$)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class CacheHints:
    """What an invoker may return instead of a bare response to say how cacheable it is.

    ``CacheHints(response, max_age_seconds=60)`` bounds the answer's fresh time (the
    ``CachePolicy`` TTL still applies: the shorter wins); ``no_store=True`` keeps it out of
    the cache entirely (never served again, not even as a stale answer). The router unwraps
    ``response`` and treats it as the invoker's raw response. The built-in HTTP adapters
    return one when the response carries ``Cache-Control`` or ``Expires``.
    """

    response: Any
    max_age_seconds: float | None = None
    no_store: bool = False


def http_cache_hints(headers: Mapping[str, str], now: float) -> tuple[float | None, bool] | None:
    """``(max_age_seconds, no_store)`` from HTTP response headers, or None without any hint.

    ``Cache-Control: no-store`` keeps the answer out; ``no-cache`` and ``max-age=0`` make it
    never fresh (still kept for stale answers); ``max-age=N`` wins over ``Expires``, which
    counts from the response's ``Date`` (else *now*, wall seconds); an unreadable or past
    ``Expires`` means already expired (RFC 9111, section 5.3).
    """
    control = _header(headers, "cache-control")
    if control is not None:
        directives = {part.strip().split("=", 1)[0].lower() for part in control.split(",")}
        if "no-store" in directives:
            return None, True
        if "no-cache" in directives:
            return 0.0, False
        match = _MAX_AGE.search(control)
        if match is not None:
            return float(match.group(1)), False
    expires = _header(headers, "expires")
    if expires is None:
        return None
    try:
        at = email.utils.parsedate_to_datetime(expires).timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return 0.0, False
    date = _header(headers, "date")
    base = now
    if date is not None:
        try:
            base = email.utils.parsedate_to_datetime(date).timestamp()
        except (TypeError, ValueError, IndexError, OverflowError):
            base = now
    return max(0.0, at - base), False


def _header(headers: Mapping[str, str], name: str) -> str | None:
    value = headers.get(name)
    if value is None:
        for key, found in headers.items():
            if key.lower() == name:
                return found
    return value
