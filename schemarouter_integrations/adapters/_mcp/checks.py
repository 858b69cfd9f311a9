"""Checks of the ``add_mcp`` options that name tools, headers and environment variables."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...errors import RegistrationError
from .._fields import unknown_names

__all__ = ["checked_env", "checked_headers", "listed_names", "readers_of"]


def readers_of(read_only: bool | Sequence[str] | None, selected: set[str], what: str) -> Any:
    """``tool name -> read_only`` from the application's word."""
    if read_only is None or isinstance(read_only, bool):
        return lambda _name: read_only
    named = listed_names(read_only, "read_only", what) or []
    if set(named) - selected:
        raise unknown_names(f"{what}: read_only=", "selected MCP tool", set(named) - selected, selected)
    return lambda tool_name: True if tool_name in named else None


def listed_names(value: Any, option: str, what: str) -> list[str] | None:
    if value is None:
        return None
    if (
        isinstance(value, str)
        or not isinstance(value, Sequence)
        or not all(isinstance(v, str) for v in value)
    ):
        raise RegistrationError(f"{what}: {option}= must be a list of MCP tool names")
    return list(dict.fromkeys(value))


def checked_headers(headers: Mapping[str, str] | None, what: str) -> dict[str, str]:
    """*headers* that can be sent as written (one rule for every route's headers)."""
    from .._url import check_headers

    return check_headers(headers, what=what)


def checked_env(env: Mapping[str, str] | None, what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in (env or {}).items():
        if not isinstance(key, str) or not key or not isinstance(value, str):
            raise RegistrationError(f"{what}: env must map variable names to string values")
        if "\0" in key + value or "=" in key:
            raise RegistrationError(f"{what}: environment variable {key!r} contains NUL or '=' in its name")
        out[key] = value
    return out
