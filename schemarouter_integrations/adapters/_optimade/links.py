"""Reading the federation's documents: the bundled providers list, links entries, ``/info`` facts."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import httpx

from ...errors import RegistrationError
from .._fields import as_dict
from .discovery import VERSIONED, entry_types

__all__ = ["attributes", "bundled_providers", "database_id", "prefix", "served", "unusable_url"]


def bundled_providers() -> list[dict[str, Any]]:
    """The providers list shipped with ``optimade`` (``optimade/server/data/providers.json``)."""
    spec = importlib.util.find_spec("optimade")
    if spec is None or not spec.submodule_search_locations:
        raise RegistrationError(
            "source=None reads the providers list shipped with optimade: "
            "install the [optimade] extra, or pass a providers-list URL or database URLs"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / "server" / "data" / "providers.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8")).get("data")
    except (OSError, ValueError, AttributeError) as exc:
        raise RegistrationError(f"could not read the bundled providers list {path}: {exc}") from None
    return [item for item in data or () if isinstance(item, dict)]


def served(info: Any) -> list[str]:
    """The entry types a database's ``/info`` says it serves (none when it says nothing valid)."""
    try:
        return entry_types(as_dict(as_dict(as_dict(info).get("data")).get("attributes")), None)
    except RegistrationError:
        return []


def attributes(entry: Mapping[str, Any]) -> dict[str, Any]:
    return as_dict(entry.get("attributes"))


def prefix(info: Any) -> str | None:
    prefix = as_dict(as_dict(as_dict(info).get("meta")).get("provider")).get("prefix")
    return prefix if isinstance(prefix, str) and prefix else None


def database_id(url: str) -> str:
    """A database id for a bare base URL: its last path segment that is not a version."""
    segments = [s for s in httpx.URL(url).path.split("/") if s and not VERSIONED.search(f"/{s}")]
    return segments[-1] if segments else "main"


def unusable_url(url: str) -> str | None:
    """Why *url* cannot be a database or index address (None: it can): only absolute
    http(s) URLs are followed; ``file:``, ``ftp:``, ``javascript:``, ``data:`` and URLs that
    do not parse are skipped, never fatal."""
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError, ValueError):
        return "is not a valid URL"
    if parsed.scheme not in ("http", "https") or not parsed.host:
        return f"is not an http(s) URL (scheme {parsed.scheme or 'none'!r})"
    return None
