"""Snapshots of the router's state for people and dashboards (no callables, no secrets)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ._contracts.origins import ORIGIN_KEY_PREFIX, is_origin_key
from ._registry import BindingState, Registry
from .stores import AvailabilityMark


class ExecutionSnapshot(BaseModel):
    """Binding readiness and access health, kept apart.

    ``cooled_origins`` maps each cooled origin (``scheme://host:port``) to its seconds left;
    every access path on a cooled origin is also in ``unavailable_access_paths`` and
    ``cooldowns`` (with the longer of its own and its origin's time left).
    """

    model_config = ConfigDict(frozen=True)

    binding_states: dict[str, BindingState]
    unavailable_access_paths: list[str]
    cooldowns: dict[str, float]
    cooldown_reasons: dict[str, str | None] = Field(default_factory=dict)
    cooled_origins: dict[str, float] = Field(default_factory=dict)


class ToolSnapshot(BaseModel):
    """One registered tool. ``left_out``: what its document described but registration left
    out (an OpenAPI operation, an OPTIMADE entry type) and why."""

    model_config = ConfigDict(frozen=True)

    provider: str | None
    access_mode: str | None
    fingerprint: str
    endpoints: list[str]
    read_only: dict[str, bool | None]
    origin: str | None = None
    left_out: dict[str, str] = Field(default_factory=dict)


class ProbeSnapshot(BaseModel):
    """What is known about one registered health probe (never the callable itself).

    ``last_run`` is on the router's monotonic clock; ``last_outcome`` is ``"ok"``,
    ``"failed"`` (returned False or a non-bool), ``"timeout"`` or ``"error"`` (raised).
    A ``stale`` probe no longer runs: its tool's contract changed, the tool was removed or
    the endpoint is no longer read_only=True (``stale_reason`` says which).
    """

    model_config = ConfigDict(frozen=True)

    access_path: str
    last_run: float | None = None
    last_outcome: str | None = None
    last_error: str | None = None
    last_duration_ms: float | None = None
    consecutive_failures: int = 0
    runs: int = 0
    stale: bool = False
    stale_reason: str | None = None


class HealthSnapshot(BaseModel):
    """The monitor, the probes and the availability store.

    ``store`` holds the store's ``status()``: ``kind`` (``"memory"``, ``"redis"``),
    ``shared``, ``connected``, ``last_error`` and store-specific counters.
    """

    model_config = ConfigDict(frozen=True)

    monitor_running: bool = False
    interval_seconds: float | None = None
    probe_timeout_seconds: float | None = None
    max_concurrency: int | None = None
    probes: dict[str, ProbeSnapshot] = Field(default_factory=dict)
    store: dict[str, Any] = Field(default_factory=dict)


class CachedCopySnapshot(BaseModel):
    """A stored copy standing in for a document whose source could not be reached."""

    model_config = ConfigDict(frozen=True)

    age_seconds: float
    """Wall-clock seconds since the copy was fetched."""
    stored_at: str
    """When it was fetched (ISO 8601, UTC)."""
    reason: str
    """Why the source was not used (the failure, without secrets)."""


class DocumentsSnapshot(BaseModel):
    """``cache``: the document cache folder (None: no cache); ``from_cache``: public URL ->
    the copy in use because its source could not be reached when it was last read."""

    model_config = ConfigDict(frozen=True)

    cache: str | None = None
    from_cache: dict[str, CachedCopySnapshot] = Field(default_factory=dict)


class RouterSnapshot(BaseModel):
    """``router.inspect()``: ``execution``, ``tools``, ``health``, ``pending`` and ``documents``.

    ``pending`` maps each landscape route not registered yet (its document could not be
    read) to the reason; it is retried while the router is entered.
    """

    model_config = ConfigDict(frozen=True)

    execution: ExecutionSnapshot
    tools: dict[str, ToolSnapshot]
    health: HealthSnapshot
    pending: dict[str, str] = Field(default_factory=dict)
    documents: DocumentsSnapshot = DocumentsSnapshot()
    cache: dict[str, Any] | None = None
    """The answer cache: kind, entries, hits, misses, ``hit_rate``, stale, coalesced (None: no cache)."""
    rate_limits: dict[str, Any] = Field(default_factory=dict)
    """``backend`` and ``limits``: each route's and provider's limit with its admitted, waited
    and passed-over counts."""


def router_snapshot(
    registry: Registry,
    marks: dict[str, AvailabilityMark],
    now: float,
    health: HealthSnapshot,
    *,
    pending: dict[str, str] | None = None,
    documents: DocumentsSnapshot | None = None,
) -> RouterSnapshot:
    """``router.inspect()`` from the registry, the active marks at *now* and the health snapshot."""
    paths: dict[str, AvailabilityMark] = {}
    origins: dict[str, AvailabilityMark] = {}
    for key, mark in marks.items():
        if is_origin_key(key):
            origins[key[len(ORIGIN_KEY_PREFIX) :]] = mark
        else:
            paths[key] = mark
    for origin, mark in origins.items():
        for path in registry.paths_on(origin):
            own = paths.get(path)
            if own is None or own.until < mark.until:
                paths[path] = mark
    return RouterSnapshot(
        execution=ExecutionSnapshot(
            binding_states=registry.binding_states(),
            unavailable_access_paths=sorted(paths),
            cooldowns={p: round(max(m.until - now, 0.0), 3) for p, m in sorted(paths.items())},
            cooldown_reasons={p: m.reason for p, m in sorted(paths.items())},
            cooled_origins={o: round(max(m.until - now, 0.0), 3) for o, m in sorted(origins.items())},
        ),
        tools={
            name: ToolSnapshot(
                provider=spec.provider,
                access_mode=spec.access_mode,
                fingerprint=spec.fingerprint,
                endpoints=[e.name for e in spec.endpoints],
                read_only={e.name: e.read_only for e in spec.endpoints},
                origin=spec.origin,
                left_out=_left_out(registry, name, spec.fingerprint),
            )
            for name, spec in sorted(registry.tools.items())
        },
        health=health,
        pending=pending or {},
        documents=documents or DocumentsSnapshot(),
    )


def _left_out(registry: Registry, name: str, fingerprint: str) -> dict[str, str]:
    """What the invoker bound to the tool's current contract says registration left out."""
    binding = registry.binding(name)
    if binding is None or binding.fingerprint != fingerprint:
        return {}
    left_out = getattr(binding.invoker, "left_out", None)
    return dict(left_out) if isinstance(left_out, dict) else {}
