"""The router's health controls: marks, probes, the monitor and the lifecycle that stops it.

:class:`HealthControls` is the part of :class:`~schemarouter_integrations.SchemaRouter`
behind ``mark_access_unavailable``, ``mark_access_available``, ``register_health_probe``,
``start_health_monitor``, ``stop_health_monitor`` and ``async with router:``; the work is
done by the services it holds (``_availability``, ``_health``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Self

import anyio

from ._availability import Availability
from ._closing import ClosesOnExit
from ._execution import Executor
from ._execution.sinks import EventBus
from ._health import Probe
from ._health.background import Background
from ._health.service import HealthService
from ._registry import Registry, RouteRef
from .errors import RegistrationError

if TYPE_CHECKING:
    from .adapters._clients import HttpClients

__all__ = ["HealthControls"]


class HealthControls(ClosesOnExit):
    """Marks and probes of access paths, the health monitor, ``async with`` and ``aclose``."""

    registry: Registry
    events: EventBus
    _availability: Availability
    _executor: Executor
    _health: HealthService
    _background: Background
    _http_clients: HttpClients | None
    _closers: list[Callable[[], Awaitable[None]]]

    if TYPE_CHECKING:  # provided by AnswerSettings

        async def _start_answers(self) -> None: ...

        async def _close_answers(self) -> None: ...

    def mark_access_unavailable(
        self, tool: str, endpoint: str, *, seconds: float | None = None, reason: str | None = None
    ) -> None:
        """Take ``tool.endpoint`` out of planning for *seconds* (default: the base cooldown).

        The application's word is kept as given: *seconds* may exceed the cooldown policy's
        ``max_seconds``, which bounds only the growth the router decides on its own (failed
        invocations, Retry-After hints, failed probes). Say a known one-hour outage with
        ``seconds=3600``; the path reopens then, or earlier through
        :meth:`mark_access_available` or a successful health probe. The mark replaces any
        running mark of the path, and later failures never shorten it.

        Raises :class:`~schemarouter_integrations.errors.ConfigurationError` (a ``ValueError``)
        when *seconds* is NaN, infinite or negative (every mark expires), and
        :class:`RegistrationError` for an unknown access path.
        """
        route = self._route(tool, endpoint)
        reason = reason or "marked by application"
        self.events.publish_sync(self._availability.marked_unavailable(route, seconds=seconds, reason=reason))

    def mark_access_available(self, tool: str, endpoint: str) -> None:
        """Reopen ``tool.endpoint`` at once and reset its cooldown growth."""
        reopened = self._availability.reopened(self._route(tool, endpoint), reason="marked by application")
        if reopened is not None:
            self.events.publish_sync(reopened)

    def register_health_probe(self, tool: str, endpoint: str, probe: Probe) -> None:
        """Attach a trusted ``() -> bool`` probe (async, or sync run in a worker thread) to a
        read_only=True access path."""
        self._health.register_probe(tool, endpoint, probe)

    async def start_health_monitor(
        self,
        interval_seconds: float = 30,
        probe_timeout_seconds: float = 5,
        max_concurrency: int = 4,
    ) -> None:
        """Run probes at once, then every *interval_seconds*, until stopped."""
        await self._background.start_monitor(
            interval_seconds=interval_seconds,
            probe_timeout_seconds=probe_timeout_seconds,
            max_concurrency=max_concurrency,
        )

    async def stop_health_monitor(self) -> None:
        await self._background.stop_monitor()

    # -- lifecycle -------------------------------------------------------------------
    async def __aenter__(self) -> Self:
        await self._background.open()  # the router's background task group; starts the store
        await self._start_answers()
        return self

    async def aclose(self) -> None:
        """Stop the monitor and background services, close the HTTP client and MCP sessions."""
        # The background task group was entered in this task: it is exited here directly,
        # not inside a new cancel scope (anyio requires it to be the innermost scope).
        self._executor.hedger.cancel_detached()
        try:
            await self._background.close()
        finally:
            with anyio.CancelScope(shield=True):
                if self._http_clients is not None:
                    await self._http_clients.aclose()
                for close in self._closers:  # sessions reopen on use; each aclose() closes them
                    await close()
                await self._close_answers()

    def _route(self, tool: str, endpoint: str) -> RouteRef:
        spec = self.registry.tool(tool)
        if spec is None or spec.endpoint(endpoint) is None:
            raise RegistrationError(f"{tool}.{endpoint} is not a registered access path")
        return self.registry.identity(tool, endpoint)
