"""Health service: which trusted probes watch which access paths, and what their outcomes change.

A probe's outcome changes availability only through the availability service: a success
reopens the path at once (``route.available``), a failure cools it down like a failed
invocation, growing with the streak (``route.unavailable``). Each run is also published as
a ``health.probe`` event.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from .._availability import Availability
from .._callables import call_problem
from .._execution.sinks import EventBus
from .._inspection import ProbeSnapshot
from .._registry import Registry, RouteRef
from ..errors import PolicyViolationError, RegistrationError
from ..events import HealthProbeEvent
from .probes import Probe, ProbeEntry, ProbeOutcome

__all__ = ["HealthService"]

logger = logging.getLogger("schemarouter_integrations.health")


class HealthService:
    """Owns the probes of one router and applies their outcomes."""

    def __init__(
        self,
        registry: Registry,
        availability: Availability,
        events: EventBus,
        clock: Callable[[], float],
    ) -> None:
        self.registry = registry
        self.availability = availability
        self.events = events
        self.clock = clock
        self.probes: dict[str, ProbeEntry] = {}

    def register_probe(self, tool: str, endpoint: str, probe: Probe) -> None:
        """Attach a trusted probe to a read_only=True path; replaces an earlier one."""
        spec = self.registry.tool(tool)
        if spec is None:
            raise RegistrationError(f"cannot probe {tool}.{endpoint}: no such tool")
        target = spec.endpoint(endpoint)
        if target is None:
            raise RegistrationError(f"cannot probe {tool}.{endpoint}: no such endpoint")
        if target.read_only is not True:
            raise PolicyViolationError(
                f"probes may only watch read_only=True access paths; {tool}.{endpoint} is not"
            )
        problem = call_problem(probe, 0)
        if problem is not None:
            raise RegistrationError(
                f"a health probe is a callable without arguments returning bool, but {problem}"
            )
        entry = ProbeEntry(tool, endpoint, probe, spec.fingerprint)
        self.probes[entry.access_path] = entry

    def stale_reason(self, entry: ProbeEntry) -> str | None:
        """Why *entry* no longer runs, or None while it still matches its contract."""
        spec = self.registry.tool(entry.tool)
        if spec is None:
            return "the tool was removed"
        if spec.fingerprint != entry.tool_fingerprint:
            return "the tool's contract changed after the probe was registered"
        target = spec.endpoint(entry.endpoint)
        if target is None:
            return "the endpoint no longer exists"
        if target.read_only is not True:
            return "the endpoint is no longer read_only=True"
        return None

    def is_stale(self, entry: ProbeEntry) -> bool:
        """A probe goes stale when its tool's contract changed or stopped being read-only."""
        return self.stale_reason(entry) is not None

    def runnable_probes(self) -> list[ProbeEntry]:
        """The fresh probes, in path order; stale ones are skipped (and logged once)."""
        fresh = []
        for path, entry in sorted(self.probes.items()):
            reason = self.stale_reason(entry)
            if reason is None:
                fresh.append(entry)
            elif not entry.stale_logged:
                entry.stale_logged = True
                logger.info("health probe of %s is stale (%s); register it again", path, reason)
        return fresh

    async def record(self, entry: ProbeEntry, outcome: ProbeOutcome) -> None:
        """Apply one probe outcome: clear or extend the cooldown and publish events."""
        path = entry.access_path
        entry.runs += 1
        entry.last_run = self.clock()
        entry.last_outcome = outcome.verdict
        entry.last_error = outcome.error
        entry.last_duration_ms = outcome.duration_ms
        route = self.registry.identity(entry.tool, entry.endpoint)
        if self.is_stale(entry):  # the contract changed while it ran: availability untouched
            await self._publish_probe(route, outcome)
            return
        if outcome.ok:
            entry.consecutive_failures = 0
            reopened = self.availability.reopened(route, reason="health probe succeeded")
            await self._publish_probe(route, outcome)
            if reopened is not None:
                logger.info("health probe of %s succeeded; the path is open again", path)
                await self.events.publish(reopened)
            return
        entry.consecutive_failures += 1
        unavailable = self.availability.probe_failed(
            route, reason=f"health probe {outcome.verdict}: {outcome.error}"
        )
        logger.log(
            logging.WARNING if entry.consecutive_failures == 1 else logging.INFO,
            "health probe of %s %s (%s); cooled down for %.1fs",
            path,
            "timed out" if outcome.verdict == "timeout" else "failed",
            outcome.error,
            unavailable.cooldown_seconds,
        )
        await self._publish_probe(route, outcome, cooldown_seconds=unavailable.cooldown_seconds)
        await self.events.publish(unavailable)

    async def _publish_probe(
        self, route: RouteRef, outcome: ProbeOutcome, *, cooldown_seconds: float | None = None
    ) -> None:
        await self.events.publish(
            HealthProbeEvent(
                **route.fields(),
                ok=outcome.ok,
                error=outcome.error,
                duration_ms=outcome.duration_ms,
                cooldown_seconds=cooldown_seconds,
            )
        )

    def probe_snapshots(self) -> dict[str, ProbeSnapshot]:
        """What is known about every registered probe, by access path."""
        probes = {}
        for path, entry in sorted(self.probes.items()):
            reason = self.stale_reason(entry)
            probes[path] = ProbeSnapshot(
                access_path=path,
                last_run=entry.last_run,
                last_outcome=entry.last_outcome,
                last_error=entry.last_error,
                last_duration_ms=entry.last_duration_ms,
                consecutive_failures=entry.consecutive_failures,
                runs=entry.runs,
                stale=reason is not None,
                stale_reason=reason,
            )
        return probes
