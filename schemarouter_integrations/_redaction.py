"""Masking secrets in text that leaves the router.

A secret is a header value (an API key, ``Bearer <token>``, ``Basic <base64>``). Servers
often echo what they were sent ("invalid token <token>"), so masking only whole header
values is not enough: :func:`secret_parts` also yields the credential after an
authorization scheme word, the decoded ``user:password`` of Basic credentials and its
password, and the URL-encoded forms of each; :func:`redact` then masks those, the same
written with escapes (JSON ``\\/`` and ``\\uXXXX``, URL ``%XX``, HTML ``&#NN;``, mixed as a
server may mix them) and any run of :data:`ECHO_CHARS` or more consecutive characters of a
long credential (a partial echo). :func:`reveals` says whether texts hold any of that
(the document cache keeps no document that does).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from urllib.parse import quote

__all__ = ["ECHO_CHARS", "MASK", "redact", "redact_url_queries", "reveals", "secret_parts"]

MASK = "***"
ECHO_CHARS = 12
"""A run this long of a credential of at least :data:`_LONG` characters counts as an echo."""
_LONG = 16
_MIN_PART = 4
_URL_QUERY = re.compile(r"(?P<head>[A-Za-z][A-Za-z0-9+.-]*://[^\s?#\"'<>]*\?)(?P<query>[^\s#\"'<>]*)")
_QUERY_VALUE = re.compile(r"=[^&;]*")
_SCHEME = re.compile(r"^\s*(bearer|basic|token|digest|apikey|api-key|key)\s+(\S.*?)\s*$", re.IGNORECASE)


def secret_parts(secret: str) -> Iterator[str]:
    """*secret* and every part of it that a server might echo on its own."""
    pending = [secret.strip()]
    match = _SCHEME.match(secret)
    if match:
        credential = match.group(2)
        pending.append(credential)
        if match.group(1).lower() == "basic":
            pending.extend(_basic_parts(credential))
    for part in pending:
        if len(part) >= _MIN_PART:
            yield part
            encoded = quote(part, safe="")
            if encoded != part:
                yield encoded


def redact(text: str, secrets: Iterable[str]) -> str:
    """*text* with every secret, every part of one (also written with escapes) and every
    long partial echo masked."""
    parts = sorted({p for s in secrets if s for p in secret_parts(s)}, key=len, reverse=True)
    for part in parts:
        text = text.replace(part, MASK)
    if _ESCAPES.search(text):
        for part in parts:
            text = _escaped(part).sub(MASK, text)
    long_parts = [p for p in parts if len(p) >= _LONG and not any(ch.isspace() for ch in p)]
    return _mask_echoes(text, long_parts) if long_parts else text


def reveals(texts: Iterable[str], secrets: Iterable[str]) -> bool:
    """Whether any of *texts* holds a secret, a part of one or a long partial echo of one
    (what :func:`redact` would mask). Escaped forms are the caller's to decode first (the
    document cache hands the strings of the parsed document too)."""
    parts = {p for s in secrets if s for p in secret_parts(s)}
    if not parts:
        return False
    grams = {
        part[i : i + ECHO_CHARS]
        for part in parts
        if len(part) >= _LONG and not any(ch.isspace() for ch in part)
        for i in range(len(part) - ECHO_CHARS + 1)
    }
    return any(needle in text for text in texts for needle in (*parts, *grams))


_ESCAPES = re.compile(r"\\u[0-9A-Fa-f]{4}|\\/|%[0-9A-Fa-f]{2}|&#")


@lru_cache(maxsize=256)
def _escaped(part: str) -> re.Pattern[str]:
    """*part* with each character as itself or escaped (JSON, URL, HTML), in any mix."""
    pieces = []
    for char in part:
        code = ord(char)
        forms = [rf"&#0*{code};", rf"&#x0*{code:x};"]
        if code <= 0xFFFF:
            forms.append(rf"\\u{code:04x}")
        if char == "/":
            forms.append(r"\\/")
        forms.append("".join(f"%{byte:02x}" for byte in char.encode("utf-8")))
        pieces.append(f"(?:{re.escape(char)}|(?i:{'|'.join(forms)}))")
    return re.compile("".join(pieces))


def _basic_parts(credential: str) -> list[str]:
    try:
        decoded = base64.b64decode(credential, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return []
    _user, _, password = decoded.partition(":")
    return [decoded, password] if password else [decoded]


def _mask_echoes(text: str, parts: list[str]) -> str:
    """Mask every run of at least ECHO_CHARS characters that also occurs in one of *parts*."""
    grams = {part[i : i + ECHO_CHARS] for part in parts for i in range(len(part) - ECHO_CHARS + 1)}
    covered = [False] * len(text)
    for start in range(len(text) - ECHO_CHARS + 1):
        if text[start : start + ECHO_CHARS] in grams:
            for i in range(start, start + ECHO_CHARS):
                covered[i] = True
    if not any(covered):
        return text
    out: list[str] = []
    masking = False
    for char, hidden in zip(text, covered, strict=True):
        if hidden:
            if not masking:
                out.append(MASK)
            masking = True
        else:
            out.append(char)
            masking = False
    return "".join(out)


def redact_url_queries(text: str) -> str:
    """*text* with the value of every query parameter of every URL in it masked.

    ``https://api.example.org/x?api_key=s3cret&_fields=a`` becomes
    ``https://api.example.org/x?api_key=***&_fields=***``: the parameter names stay (they say
    what was asked), the values (keys, tokens, the user's data) do not.
    """
    if "://" not in text or "?" not in text:
        return text
    return _URL_QUERY.sub(lambda m: m.group("head") + _QUERY_VALUE.sub("=" + MASK, m.group("query")), text)
