"""The router's background tasks: the store's lifecycle, pending routes' retries, the monitor.

``async with router:`` calls :meth:`Background.open`, which enters the router's own anyio
task group and runs the availability store's lifecycle (``start``/``aclose``) in a task of
it; the monitor then runs as another task of that group, so routers, stores and monitors
can be started and stopped in any order. A monitor started outside ``async with router:``
gets a task group of its own, entered by ``start`` and exited by ``stop`` through an
:class:`~contextlib.AsyncExitStack`, so both must run in the same task. Starting a running
monitor raises :class:`~schemarouter_integrations.errors.LifecycleError` (also a
``RuntimeError``).
"""

from __future__ import annotations

from contextlib import AsyncExitStack
from typing import TYPE_CHECKING

import anyio
from anyio.abc import TaskGroup, TaskStatus

from .._inspection import HealthSnapshot
from ..errors import LifecycleError
from ..stores import AvailabilityStore
from .monitor import HealthMonitor
from .pending import PendingRoutes
from .service import HealthService

if TYPE_CHECKING:
    from .._execution import Sleep

__all__ = ["Background"]


class Background:
    """Starts and stops the store and the monitor of one router."""

    def __init__(
        self, store: AvailabilityStore, health: HealthService, *, sleep: Sleep, pending: PendingRoutes
    ) -> None:
        self.store = store
        self.health = health
        self.pending = pending
        self._sleep = sleep
        self._background: tuple[AsyncExitStack, TaskGroup] | None = None
        self._store_scope: anyio.CancelScope | None = None
        self._monitor: HealthMonitor | None = None
        self._monitor_scope: anyio.CancelScope | None = None
        self._monitor_done: anyio.Event | None = None
        self._monitor_stack: AsyncExitStack | None = None

    # -- the router's task group and the store ----------------------------------------
    async def open(self) -> None:
        """Enter the router's task group, start the availability store in it, and the retries
        of the routes still pending (:mod:`.pending`) when there are any.

        Returns once the store has started (a shared store has made its first attempt to
        load the marks). No-op when already open.
        """
        if self._background is not None:
            return
        stack = AsyncExitStack()
        group = await stack.enter_async_context(anyio.create_task_group())
        try:
            await group.start(self._run_store, name="schemarouter-store")
            if self.pending:
                await group.start(self.pending.run, name="schemarouter-pending-routes")
        except BaseException:
            group.cancel_scope.cancel()
            await stack.aclose()
            raise
        self._background = (stack, group)

    async def close(self) -> None:
        """Stop the monitor, then the store, then leave the router's task group."""
        try:
            await self.stop_monitor()
        finally:
            background, self._background = self._background, None
            if background is not None:
                stack, group = background
                if self._store_scope is not None:
                    self._store_scope.cancel()
                group.cancel_scope.cancel()
                await stack.aclose()  # exited directly: it must be the innermost scope here

    async def _run_store(self, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        with anyio.CancelScope() as scope:
            self._store_scope = scope
            await self.store.start()
            task_status.started()
            try:
                await anyio.sleep_forever()
            finally:
                await self.store.aclose()  # in this task, so the store's own task group unwinds here

    # -- the monitor -----------------------------------------------------------------
    @property
    def monitor(self) -> HealthMonitor | None:
        return self._monitor

    async def start_monitor(
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
            self.health.runnable_probes,
            self.health.record,
            interval_seconds=interval_seconds,
            probe_timeout_seconds=probe_timeout_seconds,
            max_concurrency=max_concurrency,
            sleep=self._sleep,
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

    async def stop_monitor(self) -> None:
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

    def snapshot(self) -> HealthSnapshot:
        """The monitor, the probes and the store, as plain data."""
        monitor = self._monitor
        return HealthSnapshot(
            monitor_running=monitor is not None,
            interval_seconds=monitor.interval_seconds if monitor else None,
            probe_timeout_seconds=monitor.probe_timeout_seconds if monitor else None,
            max_concurrency=monitor.max_concurrency if monitor else None,
            probes=self.health.probe_snapshots(),
            store=self.store.status(),
        )
