"""Origins: the service an access path talks to, ``scheme://host[:port]`` (RFC 6454).

Routes that share an origin share its fate: when the service does not answer at all
(connection refused, reset or timed out), every access path on it is out of planning until
the origin's cooldown expires or a path on it answers again.
"""

from __future__ import annotations

from urllib.parse import urlsplit

__all__ = ["ORIGIN_KEY_PREFIX", "is_origin_key", "origin_key", "origin_of"]

_DEFAULT_PORTS = {"http": 80, "https": 443}
ORIGIN_KEY_PREFIX = "origin:"
"""Availability marks of origins are stored beside those of access paths under this prefix
(an access path is ``tool.endpoint`` and never starts with it)."""


def origin_of(url: object) -> str:
    """``scheme://host[:port]`` of an absolute http(s) URL (a string or an ``httpx.URL``),
    lower-case, default ports left out.

    Raises ``ValueError`` for anything else.
    """
    try:
        parsed = urlsplit(str(url).strip())
        port = parsed.port
    except ValueError as exc:
        raise ValueError(f"not a URL: {exc}") from None
    scheme = parsed.scheme.lower()
    host = _ascii_host((parsed.hostname or "").lower())
    if scheme not in _DEFAULT_PORTS or not host:
        raise ValueError("not an absolute http(s) URL")
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    suffix = "" if port is None or port == _DEFAULT_PORTS[scheme] else f":{port}"
    return f"{scheme}://{host}{suffix}"


def _ascii_host(host: str) -> str:
    """An internationalised host name in its ASCII (punycode) form, as HTTP clients send it."""
    if host.isascii():
        return host
    try:
        import idna  # httpx's own IDNA 2008 codec, so both spell a host alike

        return str(idna.encode(host, uts46=True).decode("ascii"))
    except ImportError:  # pragma: no cover - idna comes with httpx
        return host.encode("idna").decode("ascii")
    except Exception as exc:  # not a valid host name
        raise ValueError(f"not a valid host name: {exc}") from None


def origin_key(origin: str) -> str:
    """The availability-store key of *origin*'s mark."""
    return ORIGIN_KEY_PREFIX + origin


def is_origin_key(key: str) -> bool:
    return key.startswith(ORIGIN_KEY_PREFIX)
