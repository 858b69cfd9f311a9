"""Trusted health probes and the background monitor (see ``monitor.py``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import PolicyViolationError, RegistrationError
from ..inspection import HealthSnapshot, ProbeSnapshot

if TYPE_CHECKING:
    from ..router import SchemaRouter

Probe = Callable[[], Awaitable[bool]]


@dataclass(slots=True)
class ProbeEntry:
    """A registered probe, tied to the contract it was registered against."""

    tool: str
    endpoint: str
    probe: Probe
    tool_fingerprint: str
    last_run: float | None = None
    last_outcome: str | None = None
    last_error: str | None = None
    consecutive_failures: int = 0

    @property
    def access_path(self) -> str:
        return f"{self.tool}.{self.endpoint}"


class HealthService:
    """Owns probes; the monitor runs them (``start``/``stop``)."""

    def __init__(self, router: SchemaRouter) -> None:
        self.router = router
        self.probes: dict[str, ProbeEntry] = {}

    def register_probe(self, tool: str, endpoint: str, probe: Probe) -> None:
        spec = self.router.registry.tool(tool)
        if spec is None:
            raise RegistrationError(f"cannot probe {tool}.{endpoint}: no such tool")
        target = spec.endpoint(endpoint)
        if target is None:
            raise RegistrationError(f"cannot probe {tool}.{endpoint}: no such endpoint")
        if target.read_only is not True:
            raise PolicyViolationError(
                f"probes may only watch read_only=True access paths; {tool}.{endpoint} is not"
            )
        if not callable(probe):
            raise RegistrationError("a health probe must be an async callable returning bool")
        entry = ProbeEntry(tool, endpoint, probe, spec.fingerprint)
        self.probes[entry.access_path] = entry

    def is_stale(self, entry: ProbeEntry) -> bool:
        """A probe goes stale when its tool's contract changed or stopped being read-only."""
        spec = self.router.registry.tool(entry.tool)
        if spec is None or spec.fingerprint != entry.tool_fingerprint:
            return True
        target = spec.endpoint(entry.endpoint)
        return target is None or target.read_only is not True

    @property
    def monitor_running(self) -> bool:
        return False

    async def start(
        self, *, interval_seconds: float, probe_timeout_seconds: float, max_concurrency: int
    ) -> None:
        raise NotImplementedError("the health monitor is not implemented yet")

    async def stop(self) -> None:
        return None

    def snapshot(self) -> HealthSnapshot:
        return HealthSnapshot(
            monitor_running=self.monitor_running,
            probes={
                path: ProbeSnapshot(
                    access_path=path,
                    last_run=e.last_run,
                    last_outcome=e.last_outcome,
                    last_error=e.last_error,
                    consecutive_failures=e.consecutive_failures,
                    stale=self.is_stale(e),
                )
                for path, e in sorted(self.probes.items())
            },
            store=self.router.availability_store.status(),
        )
