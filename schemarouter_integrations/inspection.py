"""Snapshots of the router's state for people and dashboards (no callables, no secrets)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from .registry import BindingState


class ExecutionSnapshot(BaseModel):
    """Binding readiness and access health, kept apart."""

    model_config = ConfigDict(frozen=True)

    binding_states: dict[str, BindingState]
    unavailable_access_paths: list[str]
    cooldowns: dict[str, float]
    cooldown_reasons: dict[str, str | None] = Field(default_factory=dict)


class ToolSnapshot(BaseModel):
    model_config = ConfigDict(frozen=True)

    provider: str | None
    access_mode: str | None
    fingerprint: str
    endpoints: list[str]
    read_only: dict[str, bool | None]


class ProbeSnapshot(BaseModel):
    """What is known about one registered health probe."""

    model_config = ConfigDict(frozen=True)

    access_path: str
    last_run: float | None = None
    last_outcome: str | None = None
    last_error: str | None = None
    consecutive_failures: int = 0
    stale: bool = False


class HealthSnapshot(BaseModel):
    model_config = ConfigDict(frozen=True)

    monitor_running: bool = False
    probes: dict[str, ProbeSnapshot] = Field(default_factory=dict)
    store: dict[str, Any] = Field(default_factory=dict)


class RouterSnapshot(BaseModel):
    """``router.inspect()``: ``execution``, ``tools`` and ``health``."""

    model_config = ConfigDict(frozen=True)

    execution: ExecutionSnapshot
    tools: dict[str, ToolSnapshot]
    health: HealthSnapshot
