"""The background health monitor: runs trusted probes at once, then every interval.

Which paths are probed
----------------------
Every registered probe that is not stale runs in every round, whether its access path is
in cooldown or healthy. Probing cooled-down paths reopens them as soon as they recover;
probing healthy paths finds an outage before a user's question pays the failed network
wait for it (with a shared store, before any router of the fleet pays it). The cost is
bounded and chosen by the application: it registered a cheap, trusted, read-only check
and picks the interval and the concurrency. A failed probe cools the path like a failed
invocation (growing, bounded by ``max_seconds``); a successful one clears the cooldown at
once and resets the growth.

Rounds never overlap: the next round starts *interval* seconds after the previous one
finished. A probe that times out, raises or returns a non-bool counts as a failure; it
is logged (a warning for the first failure of a streak, then info) and published as a
``health.probe`` event, and it never stops the monitor.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import anyio
import anyio.lowlevel
from anyio.abc import TaskStatus

from ..errors import ConfigurationError
from .probes import ProbeEntry, ProbeOutcome, run_probe

if TYPE_CHECKING:
    from .._execution import Sleep

Recorder = Callable[[ProbeEntry, ProbeOutcome], Awaitable[None]]
"""Applies one probe outcome (the health service's ``record``)."""

logger = logging.getLogger("schemarouter_integrations.health")


class HealthMonitor:
    """One monitor run: a loop of probe rounds with bounded concurrency.

    *probes* returns the probes to run in a round; *record* applies each outcome.
    """

    def __init__(
        self,
        probes: Callable[[], list[ProbeEntry]],
        record: Recorder,
        *,
        interval_seconds: float,
        probe_timeout_seconds: float,
        max_concurrency: int,
        sleep: Sleep,
    ) -> None:
        for name, value in (
            ("interval_seconds", interval_seconds),
            ("probe_timeout_seconds", probe_timeout_seconds),
        ):
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                raise ConfigurationError(f"{name} must be a positive number of seconds, got {value!r}")
        if isinstance(max_concurrency, bool) or not isinstance(max_concurrency, int) or max_concurrency < 1:
            raise ConfigurationError(f"max_concurrency must be an integer >= 1, got {max_concurrency!r}")
        self._probes = probes
        self._record = record
        self.interval_seconds = float(interval_seconds)
        self.probe_timeout_seconds = float(probe_timeout_seconds)
        self.max_concurrency = max_concurrency
        self.rounds = 0
        self._sleep = sleep
        self._limiter = anyio.CapacityLimiter(max_concurrency)

    async def run(self, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        """Probe now, then every interval, until cancelled."""
        task_status.started()
        while True:
            try:
                await self.run_round()
            except Exception:  # defensive: a bug in one round must not end the monitor
                logger.exception("health monitor round failed; the monitor goes on")
            await anyio.lowlevel.checkpoint()
            await self._sleep(self.interval_seconds)

    async def run_round(self) -> int:
        """Run every fresh probe once (at most ``max_concurrency`` at a time); how many ran."""
        entries = self._probes()
        async with anyio.create_task_group() as group:
            for entry in entries:
                group.start_soon(self._probe, entry, name=f"schemarouter-probe:{entry.access_path}")
        self.rounds += 1
        return len(entries)

    async def _probe(self, entry: ProbeEntry) -> None:
        try:
            async with self._limiter:
                outcome = await run_probe(entry.probe, self.probe_timeout_seconds)
            await self._record(entry, outcome)
        except Exception:  # defensive: recording must not take the round down
            logger.exception("recording the probe of %s failed", entry.access_path)
