"""What can be sent as an HTTP header: one rule for routes' headers and stored validators.

A header name is an RFC 9110 token; a value holds visible ASCII characters, spaces and tabs
only (no line break, NUL or other control character, and nothing the HTTP client would have
to encode). :func:`header_problem` says what is wrong without repeating the value (a value
is often a secret).
"""

from __future__ import annotations

import re

__all__ = ["MAX_HEADER_VALUE_CHARS", "header_problem", "is_header_value"]

MAX_HEADER_VALUE_CHARS = 16_384
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_VALUE = re.compile(r"[\t\x20-\x7e]*")


def is_header_value(text: str, *, max_chars: int = MAX_HEADER_VALUE_CHARS) -> bool:
    """Whether *text* can be sent as a header value as it is."""
    return len(text) <= max_chars and _VALUE.fullmatch(text) is not None


def header_problem(name: object, value: object) -> str | None:
    """Why ``name: value`` cannot be sent as a header (the value never quoted), else None."""
    if not isinstance(name, str) or not isinstance(value, str):
        return "headers must map header names to string values"
    if _TOKEN.fullmatch(name) is None:
        return f"{name[:100]!r} is not a valid HTTP header name"
    if is_header_value(value):
        return None
    if any(char in value for char in "\r\n"):
        return f"header {name!r} contains a line break"
    if "\0" in value:
        return f"header {name!r} contains a NUL character"
    if len(value) > MAX_HEADER_VALUE_CHARS:
        return f"header {name!r} is longer than {MAX_HEADER_VALUE_CHARS} characters"
    if any(ord(char) > 0x7E for char in value):
        return f"header {name!r} holds a character that is not ASCII (encode it as the API documents)"
    return f"header {name!r} holds a control character"
