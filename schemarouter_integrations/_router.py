"""``SchemaRouter``: the facade that ties contracts, planning, execution and health together."""

from __future__ import annotations

import os
import random
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Sequence
from contextlib import aclosing
from types import TracebackType
from typing import TYPE_CHECKING

import anyio

from ._answer_settings import AnswerSettings
from ._availability import Availability, CooldownTracker
from ._availability.settings import check_settings
from ._contracts import CooldownPolicy, ToolSpec
from ._document_cache import DocumentCache
from ._execution import Executor, RunBudget, RunContext, Sleep
from ._execution.executor import RUN_EVENTS_ATTRIBUTE, plan_source
from ._execution.hops import DEFAULT_MAX_HOPS
from ._execution.scopes import InvocationScope
from ._execution.sinks import EventBus, EventSink
from ._health import Probe
from ._health.background import Background
from ._health.pending import PendingRoutes
from ._health.service import HealthService
from ._inspection import DocumentsSnapshot, RouterSnapshot, router_snapshot
from ._planning import Plan, PlanRequest, planned
from ._planning.requests import as_request
from ._registry import BindingState, Invoker, Registry, RouteRef
from ._sources import DataSources
from ._sync import run_sync
from .errors import ConfigurationError, RegistrationError, SchemaRouterError
from .events import GatherResult, RouterEvent, RunEndEvent, RunErrorEvent, RunStartEvent, ToolResult
from .stores import AnswerCache, AvailabilityStore, MemoryAvailabilityStore, RateLimiterBackend

if TYPE_CHECKING:
    import httpx

    from .adapters._clients import HttpClients
    from .adapters._network import NetworkPolicy
    from .config import RouterConfig

Clock = Callable[[], float]
Resolver = Callable[[str], Awaitable[Sequence[str]]]
SINK_GRACE_SECONDS = 5.0
"""How long sinks may take to hear ``run.error`` of a cancelled run before it is abandoned."""


class SchemaRouter(AnswerSettings, DataSources):
    """One dependable data tool over many access paths.

    ``cooldown`` bounds how long failed paths stay out of planning; ``clock`` (monotonic
    seconds) and ``sleep`` make time injectable for tests; ``availability_store`` shares
    cooldowns (default: this process only); ``document_cache`` is a folder keeping the
    last good copy of every fetched document, used when its source cannot be reached
    (:mod:`._document_cache`). Settings of the wrong kind raise
    :class:`~schemarouter_integrations.errors.ConfigurationError` at once.

    Where it may connect (``adapters/_network.py``): a URL learned from a fetched document
    may not lead from a public address to a private or local one, nor from a private one to
    a local one; cloud metadata addresses are refused. ``allow_private_networks=True`` lifts
    the first rule and lets the application give a metadata address itself. ``resolver``
    (an async ``host -> [IP address strings]``, default the system's) answers the check.
    ``answer_cache`` and ``rate_limiter``: see :class:`._answer_settings.AnswerSettings`;
    ``max_hops``: how many routers a call may have passed through (:mod:`._execution.hops`).
    """

    def __init__(
        self,
        cooldown: CooldownPolicy | None = None,
        clock: Clock | None = None,
        availability_store: AvailabilityStore | None = None,
        *,
        sleep: Sleep | None = None,
        rng: random.Random | None = None,
        max_response_bytes: int = 10 * 1024 * 1024,
        http_client: httpx.AsyncClient | None = None,
        allow_private_networks: bool = False,
        resolver: Resolver | None = None,
        document_cache: str | os.PathLike[str] | None = None,
        answer_cache: AnswerCache | None = None,
        rate_limiter: RateLimiterBackend | None = None,
        max_hops: int = DEFAULT_MAX_HOPS,
    ) -> None:
        check_settings(
            cooldown, clock, availability_store, sleep, max_response_bytes, allow_private_networks, resolver
        )
        if document_cache is not None and not isinstance(document_cache, str | os.PathLike):
            kind = type(document_cache).__name__
            raise ConfigurationError(f"document_cache must be a folder path, got {kind}")
        self.document_cache = DocumentCache(document_cache) if document_cache is not None else None
        self.clock: Clock = clock or time.monotonic
        self.availability_store = availability_store or MemoryAvailabilityStore()
        self.availability_store.attach(self.clock)
        self.registry = Registry()
        self.cooldowns = CooldownTracker(cooldown or CooldownPolicy(), self.availability_store, self.clock)
        self.events = EventBus()
        self.max_response_bytes = max_response_bytes
        self._availability = Availability(self.cooldowns, self.registry.origin_of, self.registry.paths_on)
        self._executor = Executor(
            self.registry,
            self._availability,
            sleep=sleep or anyio.sleep,
            rng=rng,
            late_events=self.events.publish,
        )
        self._health = HealthService(self.registry, self._availability, self.events, self.clock)
        self._pending = PendingRoutes(sleep=self._executor.sleep, rng=rng)
        self._background = Background(
            self.availability_store, self._health, sleep=self._executor.sleep, pending=self._pending
        )
        self._given_http_client = http_client
        self._http_clients: HttpClients | None = None
        self.allow_private_networks = allow_private_networks
        self._resolver = resolver
        self._network: NetworkPolicy | None = None
        self._closers: list[Callable[[], Awaitable[None]]] = []  # adapters' sessions, run by aclose()
        self._setup_answers(answer_cache, rate_limiter)
        self._setup_hops(max_hops)

    @classmethod
    async def from_config(
        cls, path_or_config: str | os.PathLike[str] | RouterConfig, *, strict: bool = False
    ) -> SchemaRouter:
        """The router a landscape file (TOML) declares: store, cooldowns, routes and probes.

        A bad file raises ``ConfigurationError`` naming the file, line and key; see
        :mod:`schemarouter_integrations.config`. A route whose document cannot be read is
        left out, listed in ``inspect().pending`` and retried while the router is entered
        (``async with router:``); with ``strict=True`` it raises ``RegistrationError``
        naming the file, line, route and cause instead.
        """
        from .config import build_router

        return await build_router(cls, path_or_config, strict=strict)

    # -- registration and bindings ---------------------------------------------------
    def register(self, spec: ToolSpec, invoker: Invoker | None = None) -> None:
        """Register (or replace) a contract; bind *invoker* to it when given."""
        self.registry.register(spec, invoker)

    def remove_tool(self, name: str) -> None:
        """Remove a contract; a bound invoker stays behind as ``"orphaned"`` until unbound."""
        self.registry.remove_tool(name)

    def bind(self, name: str, invoker: Invoker) -> None:
        """Bind a trusted invoker to the tool's current fingerprint."""
        self.registry.bind(name, invoker)

    def unbind(self, name: str) -> None:
        self.registry.unbind(name)

    @property
    def tools(self) -> dict[str, ToolSpec]:
        return self.registry.tools

    def binding_state(self, name: str) -> BindingState:
        return self.registry.binding_state(name)

    @property
    def http_client(self) -> httpx.AsyncClient:
        """The router's pooled HTTP client for the running event loop (created on first use)."""
        return self._http.current()

    @property
    def _http(self) -> HttpClients:
        """The per-loop HTTP clients; the HTTP adapter is imported on first use only."""
        if self._http_clients is None:
            from .adapters._clients import HttpClients

            self._http_clients = HttpClients(self._given_http_client, network=self.network_policy)
        return self._http_clients

    @property
    def network_policy(self) -> NetworkPolicy:
        """Where this router may connect (the adapter is imported on first use only)."""
        if self._network is None:
            from .adapters._network import NetworkPolicy

            self._network = NetworkPolicy(
                allow_private_networks=self.allow_private_networks, resolver=self._resolver
            )
        return self._network

    @property
    def sleep(self) -> Sleep:
        """The sleep used between retries and by the health monitor (injectable for tests)."""
        return self._executor.sleep

    # -- planning --------------------------------------------------------------------
    def plan(self, request: PlanRequest | str) -> Plan:
        """Schema- and health-aware, binding-agnostic plan. Pure and deterministic (reused
        while nothing it read changed: :mod:`._planning.reuse`)."""
        return planned(as_request(request), self.registry, self._availability.cooldown_left)

    def plan_executable(self, request: PlanRequest | str) -> Plan:
        """Like :meth:`plan`, and also drops routes whose binding is not ready."""
        return planned(
            as_request(request), self.registry, self._availability.cooldown_left, executable_only=True
        )

    # -- execution -------------------------------------------------------------------
    async def invoke(
        self, request_or_plan: PlanRequest | Plan | str, *, budget: RunBudget | None = None
    ) -> ToolResult:
        """Run a request (planned with :meth:`plan_executable`) or a compiled plan as is: the
        route's :class:`ToolResult`, or the run's error raised (its events under
        ``RUN_EVENTS_ATTRIBUTE``); nobody listening (no sink, scope, hedge), events build lazily."""
        request, source = plan_source(request_or_plan, self.plan_executable)
        if self.events.active or self._executor.scopes.active or request.hedge is not None:
            events = [event async for event in self.stream(request_or_plan, budget=budget)]
            last: RouterEvent | ToolResult | None = events[-1] if events else None
            last = last.result if isinstance(last, RunEndEvent) else last
        else:  # a quiet run builds no run.end: it hands back the result
            last, events = await self._executor.quietly(request, source, budget)
        if isinstance(last, RunErrorEvent) and last.exception is not None:
            setattr(last.exception, RUN_EVENTS_ATTRIBUTE, tuple(events))
            raise last.exception
        if not isinstance(last, ToolResult):  # pragma: no cover
            raise SchemaRouterError("the run ended without a result")
        return last

    def invoke_sync(
        self, request_or_plan: PlanRequest | Plan | str, *, budget: RunBudget | None = None
    ) -> ToolResult:
        """:meth:`invoke` for scripts and notebooks, inside or outside a running loop (inside
        one, the run goes to a worker thread with its own loop: prefer ``await router.invoke``)."""

        async def run() -> ToolResult:
            try:
                return await self.invoke(request_or_plan, budget=budget)
            finally:
                self._executor.hedger.cancel_detached()  # this loop ends with the call
                if self._http_clients is not None:
                    with anyio.CancelScope(shield=True):
                        await self._http_clients.release_current()

        return run_sync(run)

    async def stream(
        self, request_or_plan: PlanRequest | Plan | str, *, budget: RunBudget | None = None
    ) -> AsyncGenerator[RouterEvent, None]:
        """Yield the run's events live, as they happen; the last is ``run.end`` or ``run.error``.

        Every event goes to the subscribed sinks before it is yielded.
        """
        ctx = RunContext()
        request, source = plan_source(request_or_plan, self.plan_executable)
        ended = False  # run.end or run.error was yielded (late events of outrun calls may follow)
        try:
            first = ctx.event(RunStartEvent, query=request.query)
            await self.events.publish(first)
            yield first
            events = self.events
            async with aclosing(self._executor.run(source, budget, ctx)) as run:
                async for event in run:
                    if events.active:  # no coroutine per event when nobody listens
                        await events.publish(event)
                    ended = isinstance(event, RunEndEvent | RunErrorEvent)
                    yield event
        except (anyio.get_cancelled_exc_class(), GeneratorExit) as stopped:
            if not ended:
                # Sinks hear that the run ended; a sink that never returns cannot hold the
                # cancellation hostage for longer than this bound.
                with anyio.move_on_after(SINK_GRACE_SECONDS, shield=True):
                    await self.events.publish(
                        ctx.error_event(stopped, error_type="Cancelled", error="the run was cancelled")
                    )
            raise

    async def gather(
        self,
        request: PlanRequest | Plan | str,
        *,
        budget: RunBudget | None = None,
        max_routes: int | None = None,
        on_event: EventSink | None = None,
    ) -> GatherResult:
        """Run every compatible read-only route of the plan at once and collect each answer.

        Cross-provider unless the request says ``same_provider`` (:mod:`._execution.gather`);
        *on_event* sees each event after the sinks. ``AllRoutesUnavailableError``: none answered.
        """
        asked = request if isinstance(request, Plan) else as_request(request)
        publish = self.events.publisher(on_event)
        return await self._executor.gatherer.run(
            asked, self.plan_executable, budget, publish, max_routes=max_routes
        )

    def subscribe(self, handler: EventSink) -> Callable[[], None]:
        """Add an event sink (sync or async) for every run; returns an unsubscribe function."""
        return self.events.subscribe(handler)

    def add_invocation_scope(self, scope: InvocationScope) -> Callable[[], None]:
        """Enter ``scope(tool_start_event)`` (a context manager or None) around each invoker
        attempt, in the invoker's task (:mod:`._execution.scopes`); returns its remover."""
        return self._executor.scopes.add(scope)

    # -- health ----------------------------------------------------------------------
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

    def inspect(self) -> RouterSnapshot:
        """Bindings, cooldowns, tools, health, pending routes and documents, as plain data."""
        cache = self.document_cache
        documents = DocumentsSnapshot(
            cache=str(cache.directory) if cache is not None else None,
            from_cache=cache.in_use() if cache is not None else {},
        )
        return router_snapshot(
            self.registry,
            self.availability_store.active(),
            self.clock(),
            self._background.snapshot(),
            pending=self._pending.snapshot(),
            documents=documents,
        ).model_copy(update=self._answers_snapshot())

    # -- lifecycle -------------------------------------------------------------------
    async def __aenter__(self) -> SchemaRouter:
        await self._background.open()  # the router's background task group; starts the store
        await self._start_answers()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

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
