"""Health service: probe registration, the router's background tasks and what probes change.

``async with router:`` calls :meth:`HealthService.open`, which enters the router's own anyio
task group and runs the availability store's lifecycle (``start``/``aclose``) in a task of
it; the monitor then runs as another task of that group, so routers, stores and monitors
can be started and stopped in any order. A monitor started outside ``async with router:``
gets a task group of its own, entered by ``start`` and exited by ``stop`` through an
:class:`~contextlib.AsyncExitStack`, so both must run in the same task. Starting a running
monitor raises :class:`~schemarouter_integrations.errors.LifecycleError` (also a
``RuntimeError``).
"""

from __future__ import annotations

import logging
from contextlib import AsyncExitStack
from typing import TYPE_CHECKING, Any

import anyio
from anyio.abc import TaskGroup, TaskStatus

from .._callables import call_problem
from .._inspection import HealthSnapshot, ProbeSnapshot
from ..errors import LifecycleError, PolicyViolationError, RegistrationError
from ..events import HealthProbeEvent, RouteAvailableEvent, RouteUnavailableEvent
from .monitor import HealthMonitor
from .probes import Probe, ProbeEntry, ProbeOutcome

if TYPE_CHECKING:
    from .._execution.executor import Sleep
    from .._router import SchemaRouter

__all__ = ["HealthService", "Probe", "ProbeEntry"]

logger = logging.getLogger("schemarouter_integrations._health")


class HealthService:
    """Owns the probes and the monitor of one router."""

    def __init__(self, router: SchemaRouter, *, sleep: Sleep | None = None) -> None:
        self.router = router
        self.probes: dict[str, ProbeEntry] = {}
        self._sleep = sleep
        self._background: tuple[AsyncExitStack, TaskGroup] | None = None
        self._store_scope: anyio.CancelScope | None = None
        self._monitor: HealthMonitor | None = None
        self._monitor_scope: anyio.CancelScope | None = None
        self._monitor_done: anyio.Event | None = None
        self._monitor_stack: AsyncExitStack | None = None

    # -- probes ----------------------------------------------------------------------
    def register_probe(self, tool: str, endpoint: str, probe: Probe) -> None:
        """Attach a trusted probe to a read_only=True path; replaces an earlier one."""
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
        problem = call_problem(probe, 0)
        if problem is not None:
            raise RegistrationError(
                f"a health probe is a callable without arguments returning bool, but {problem}"
            )
        entry = ProbeEntry(tool, endpoint, probe, spec.fingerprint)
        self.probes[entry.access_path] = entry

    def stale_reason(self, entry: ProbeEntry) -> str | None:
        """Why *entry* no longer runs, or None while it still matches its contract."""
        spec = self.router.registry.tool(entry.tool)
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
        router = self.router
        path = entry.access_path
        entry.runs += 1
        entry.last_run = router.clock()
        entry.last_outcome = outcome.verdict
        entry.last_error = outcome.error
        entry.last_duration_ms = outcome.duration_ms
        route = self._route(entry)
        if self.is_stale(entry):  # the contract changed while it ran: availability untouched
            await router.events.publish(
                HealthProbeEvent(**route, ok=outcome.ok, error=outcome.error, duration_ms=outcome.duration_ms)
            )
            return
        if outcome.ok:
            entry.consecutive_failures = 0
            cleared = router.cooldowns.record_success(path)
            await router.events.publish(HealthProbeEvent(**route, ok=True, duration_ms=outcome.duration_ms))
            if cleared:
                logger.info("health probe of %s succeeded; the path is open again", path)
                await router.events.publish(RouteAvailableEvent(**route, reason="health probe succeeded"))
            return
        entry.consecutive_failures += 1
        mark = router.cooldowns.record_failure(
            path, reason=f"health probe {outcome.verdict}: {outcome.error}"
        )
        left = round(max(mark.until - router.clock(), 0.0), 6)
        logger.log(
            logging.WARNING if entry.consecutive_failures == 1 else logging.INFO,
            "health probe of %s %s (%s); cooled down for %.1fs",
            path,
            "timed out" if outcome.verdict == "timeout" else "failed",
            outcome.error,
            left,
        )
        await router.events.publish(
            HealthProbeEvent(
                **route,
                ok=False,
                error=outcome.error,
                duration_ms=outcome.duration_ms,
                cooldown_seconds=left,
            )
        )
        await router.events.publish(
            RouteUnavailableEvent(**route, cooldown_seconds=left, failures=mark.failures, reason=mark.reason)
        )

    def _route(self, entry: ProbeEntry) -> dict[str, Any]:
        return self.router.registry.identity(entry.tool, entry.endpoint)

    # -- background tasks ------------------------------------------------------------
    async def open(self) -> None:
        """Enter the router's task group and start the availability store in it.

        Returns once the store has started (a shared store has made its first attempt to
        load the marks). No-op when already open.
        """
        if self._background is not None:
            return
        stack = AsyncExitStack()
        group = await stack.enter_async_context(anyio.create_task_group())
        try:
            await group.start(self._run_store, name="schemarouter-store")
        except BaseException:
            group.cancel_scope.cancel()
            await stack.aclose()
            raise
        self._background = (stack, group)

    async def close(self) -> None:
        """Stop the monitor, then the store, then leave the router's task group."""
        try:
            await self.stop()
        finally:
            background, self._background = self._background, None
            if background is not None:
                stack, group = background
                if self._store_scope is not None:
                    self._store_scope.cancel()
                group.cancel_scope.cancel()
                await stack.aclose()  # exited directly: it must be the innermost scope here

    async def _run_store(self, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        store = self.router.availability_store
        with anyio.CancelScope() as scope:
            self._store_scope = scope
            await store.start()
            task_status.started()
            try:
                await anyio.sleep_forever()
            finally:
                await store.aclose()  # in this task, so the store's own task group unwinds here

    # -- the monitor -----------------------------------------------------------------
    @property
    def monitor_running(self) -> bool:
        return self._monitor is not None

    @property
    def monitor(self) -> HealthMonitor | None:
        return self._monitor

    async def start(
        self, *, interval_seconds: float, probe_timeout_seconds: float, max_concurrency: int
    ) -> None:
        """Start the monitor in the background; its first round begins at once.

        Raises :class:`LifecycleError` when the monitor is already running and
        :class:`~schemarouter_integrations.errors.ConfigurationError` for a non-positive
        interval or timeout or a concurrency below 1.
        """
        if self._monitor is not None:
            raise LifecycleError("the health monitor is already running; stop it before starting it again")
        monitor = HealthMonitor(
            self,
            interval_seconds=interval_seconds,
            probe_timeout_seconds=probe_timeout_seconds,
            max_concurrency=max_concurrency,
            sleep=self._sleep or self.router.sleep,
        )
        stack: AsyncExitStack | None = None
        if self._background is not None:
            group = self._background[1]
        else:
            stack = AsyncExitStack()
            group = await stack.enter_async_context(anyio.create_task_group())
        done = anyio.Event()
        try:
            await group.start(self._run_monitor, monitor, done, name="schemarouter-health-monitor")
        except BaseException:
            if stack is not None:
                group.cancel_scope.cancel()
                await stack.aclose()
            raise
        self._monitor, self._monitor_done, self._monitor_stack = monitor, done, stack

    async def _run_monitor(
        self,
        monitor: HealthMonitor,
        done: anyio.Event,
        *,
        task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED,
    ) -> None:
        try:
            with anyio.CancelScope() as scope:
                self._monitor_scope = scope
                await monitor.run(task_status=task_status)
        finally:
            done.set()

    async def stop(self) -> None:
        """Stop the monitor and wait for its tasks to end (no-op when it is not running)."""
        scope, done, stack = self._monitor_scope, self._monitor_done, self._monitor_stack
        self._monitor = self._monitor_scope = self._monitor_done = self._monitor_stack = None
        if scope is None or done is None:
            return
        scope.cancel()
        with anyio.CancelScope(shield=True):
            await done.wait()
        if stack is not None:
            await stack.aclose()  # the monitor's own task group (started outside async with)

    # -- inspection ------------------------------------------------------------------
    def snapshot(self) -> HealthSnapshot:
        monitor = self._monitor
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
        return HealthSnapshot(
            monitor_running=monitor is not None,
            interval_seconds=monitor.interval_seconds if monitor else None,
            probe_timeout_seconds=monitor.probe_timeout_seconds if monitor else None,
            max_concurrency=monitor.max_concurrency if monitor else None,
            probes=probes,
            store=self.router.availability_store.status(),
        )
