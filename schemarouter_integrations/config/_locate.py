"""Where each key of a TOML file is written: key path -> line number.

``tomllib`` parses but keeps no positions, so the source lines are read once more: table
headers (``[routes.mp_api]``, ``[[items]]``) set the current table, and every ``key = value``
line (dotted and quoted keys too) records its full key path. Keys inside an inline table or
a multi-line array are not listed; a lookup falls back to the nearest enclosing key that is
(``headers.x-api-key`` -> the ``headers = {...}`` line, a missing key -> its table's header).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

__all__ = ["KeyPath", "describe", "dotted", "key_lines", "line_of"]

KeyPath = tuple[str | int, ...]

_BARE = r"[A-Za-z0-9_-]+"
_QUOTED = r'"(?:[^"\\]|\\.)*"|\'[^\']*\''
_PART = rf"(?:{_BARE}|{_QUOTED})"
_KEY = re.compile(rf"^\s*({_PART}(?:\s*\.\s*{_PART})*)\s*=")
_HEADER = re.compile(rf"^\s*(\[\[|\[)\s*({_PART}(?:\s*\.\s*{_PART})*)\s*(\]\]|\])")
_PARTS = re.compile(_PART)


def _split(text: str) -> tuple[str, ...]:
    parts = []
    for match in _PARTS.finditer(text):
        part = match.group(0)
        parts.append(part[1:-1] if part[0] in "\"'" else part)
    return tuple(parts)


def _value_depth(line: str) -> int:
    """How many brackets the rest of a line leaves open (strings and comments ignored)."""
    depth, quote = 0, ""
    for char in line:
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char == "#":
            break
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
    return depth


def key_lines(source: str) -> dict[KeyPath, int]:
    """Every table header and ``key = value`` line of *source*, by key path (1-based lines)."""
    lines: dict[KeyPath, int] = {}
    table: KeyPath = ()
    arrays: dict[tuple[str, ...], int] = {}
    open_brackets = 0
    in_string = ""
    for number, line in enumerate(source.splitlines(), start=1):
        if in_string:
            if line.count(in_string) % 2:
                in_string = ""
            continue
        if open_brackets > 0:
            open_brackets += _value_depth(line)
            continue
        header = _HEADER.match(line)
        if header:
            names = _split(header.group(2))
            if header.group(1) == "[[":
                arrays[names] = arrays.get(names, -1) + 1
                table = (*names, arrays[names])
            else:
                table = names
            lines.setdefault(table, number)
            continue
        key = _KEY.match(line)
        if key:
            path = (*table, *_split(key.group(1)))
            lines.setdefault(path, number)
            rest = line[key.end() :]
            for quote in ('"""', "'''"):
                if rest.count(quote) % 2:
                    in_string = quote
            if not in_string:
                open_brackets = max(_value_depth(rest), 0)
    return lines


def line_of(lines: dict[KeyPath, int], keys: Sequence[str | int]) -> int | None:
    """The line of *keys*, or of the nearest enclosing key that has one."""
    for end in range(len(keys), 0, -1):
        found = lines.get(tuple(keys[:end]))
        if found is not None:
            return found
    return None


def dotted(keys: Sequence[str | int]) -> str:
    """``routes.mp_api.fields[0].name``; keys that are no bare words are quoted."""
    text = ""
    for key in keys:
        if isinstance(key, int):
            text += f"[{key}]"
        else:
            part = key if re.fullmatch(_BARE, key) else f'"{key}"'
            text += f".{part}" if text else part
    return text or "(top level)"


def describe(source: Path | None, lines: dict[KeyPath, int], keys: Sequence[str | int]) -> str:
    """``"landscape.toml:12: routes.mp_api.url"`` (file and line left out when unknown)."""
    where = str(source) if source is not None else "<config>"
    line = line_of(lines, keys)
    return f"{where}:{line}: {dotted(keys)}" if line is not None else f"{where}: {dotted(keys)}"
