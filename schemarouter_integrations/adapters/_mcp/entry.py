"""The ``add_mcp`` arguments of one landscape entry (``kind = "mcp"``); no MCP SDK needed.

A landscape file says, for example::

    [[routes]]
    kind = "mcp"
    name = "materials_mcp"
    provider = "materials_project"
    target = ["python", "servers/materials.py"]   # or "https://host/mcp"
    tools = ["search_materials"]
    read_only = true                              # or ["search_materials"]
    fields = ["band_gap", { name = "formula", aliases = ["chemical formula"] }]
    headers = { Authorization = "Bearer ${MCP_TOKEN}" }  # URL targets
    env = { MEMORY_FILE_PATH = "/var/lib/memory.jsonl" }  # command-line targets
    timeout = 30

:func:`mcp_route_arguments` checks such a table and returns the keyword arguments of
``await router.add_mcp(**arguments)``; a wrong key or value is a ``ConfigurationError``
naming the key (the config module adds the file and line).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ...errors import ConfigurationError

__all__ = ["MCP_ENTRY_KEYS", "mcp_route_arguments"]

MCP_ENTRY_KEYS = frozenset(
    {
        "kind",
        "name",
        "provider",
        "access_mode",
        "target",
        "tools",
        "read_only",
        "fields",
        "headers",
        "env",
        "timeout",
    }
)
"""The keys an ``mcp`` entry may have (``timeout_seconds`` is accepted for ``timeout``)."""


def mcp_route_arguments(entry: Mapping[str, Any], *, where: str = "mcp route") -> dict[str, Any]:
    """``add_mcp`` keyword arguments (``target``, ``name``, ...) from a landscape entry."""
    unknown = sorted(set(entry) - MCP_ENTRY_KEYS - {"timeout_seconds"})
    if unknown:
        raise ConfigurationError(f"{where}: unknown key(s) {unknown}; known: {sorted(MCP_ENTRY_KEYS)}")
    if entry.get("kind", "mcp") != "mcp":
        raise ConfigurationError(f"{where}: kind must be 'mcp', got {entry.get('kind')!r}")
    out: dict[str, Any] = {"target": _target(entry.get("target"), where), "name": _text(entry, "name", where)}
    for key in ("provider", "access_mode"):
        if entry.get(key) is not None:
            out[key] = _text(entry, key, where)
    if entry.get("tools") is not None:
        out["tools"] = _names(entry["tools"], "tools", where)
    read_only = entry.get("read_only")
    if read_only is not None:
        out["read_only"] = read_only if isinstance(read_only, bool) else _names(read_only, "read_only", where)
    if entry.get("fields") is not None:
        fields = entry["fields"]
        if isinstance(fields, str) or not isinstance(fields, list | Mapping):
            raise ConfigurationError(f"{where}: fields must be a list of names or field tables")
        out["fields"] = fields
    for key in ("headers", "env"):
        table = entry.get(key)
        if table is None:
            continue
        if not isinstance(table, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in table.items()
        ):
            raise ConfigurationError(f"{where}: {key} must be a table of strings")
        out[key] = dict(table)
    timeout = entry.get("timeout", entry.get("timeout_seconds"))
    if timeout is not None:
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout < math.inf:
            raise ConfigurationError(
                f"{where}: timeout must be a positive number of seconds, got {timeout!r}"
            )
        out["timeout_seconds"] = float(timeout)
    return out


def _target(value: Any, where: str) -> str | list[str]:
    if isinstance(value, str) and value:
        return value
    if isinstance(value, list) and value and all(isinstance(part, str) and part for part in value):
        return list(value)
    raise ConfigurationError(f"{where}: target must be a URL or a command line (a list of strings)")


def _text(entry: Mapping[str, Any], key: str, where: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not value:
        raise ConfigurationError(f"{where}: {key} must be a non-empty string")
    return value


def _names(value: Any, key: str, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) and item for item in value):
        raise ConfigurationError(f"{where}: {key} must be a list of MCP tool names")
    return list(value)
