"""How the landscape adds an entry of an ``add_url`` kind: ``add_url`` with the entry's keys,
then the entry's health probe on every read-only endpoint."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._contracts import ToolSpec

__all__ = ["COMMON_KEYS", "add_url_entry", "register_probe"]

COMMON_KEYS = frozenset(
    {
        "kind",
        "url",
        "provider",
        "access_mode",
        "headers",
        "timeout_seconds",
        "document_timeout_seconds",
        "cache",
        "rate_limit",
        "probe",
        "probe_arguments",
    }
)
"""The keys of an entry that are not ``add_url`` options (its named arguments, the route's
cache and rate limit, set before it is added, and the probe)."""


async def add_url_entry(
    router: Any, name: str, entry: Any, probe: Callable[[Any, str, Any], Callable[[], Any]] | None
) -> None:
    """``router.add_url(entry.url, kind=entry.kind, ...)``: every other key the entry sets is
    passed as an option; with ``probe`` set and a *probe* factory, the probe is registered."""
    options = {
        key: getattr(entry, key)
        for key in type(entry).model_fields
        if key not in COMMON_KEYS and getattr(entry, key) is not None
    }
    spec = await router.add_url(
        entry.url,
        kind=entry.kind,
        name=name,
        provider=entry.provider,
        access_mode=entry.access_mode or entry.kind,
        headers=entry.secret_headers() or None,
        timeout_seconds=entry.timeout_seconds,
        document_timeout_seconds=entry.document_timeout_seconds,
        **options,
    )
    if getattr(entry, "probe", None) is not None and probe is not None:
        register_probe(router, name, spec, probe(router, name, entry))


def register_probe(router: Any, name: str, spec: ToolSpec, probe: Callable[[], Any]) -> None:
    """*probe* as the health probe of every read-only endpoint of *spec*."""
    for endpoint in spec.endpoints:
        if endpoint.read_only is True:
            router.register_health_probe(name, endpoint.name, probe)
