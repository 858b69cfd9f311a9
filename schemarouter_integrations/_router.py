"""``SchemaRouter``: the facade that ties contracts, planning, execution and health together.

Registration, planning, execution and ``inspect`` are here; ``add_url`` and the other sources
in ``_sources.py``; cache and rate limits in ``_answer_settings.py``; marks, probes, the health
monitor and the lifecycle in ``_health_controls.py``; the settings in ``_settings.py``.
"""

from __future__ import annotations

import os
import random
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import aclosing
from typing import TYPE_CHECKING

import anyio

from ._answer_settings import AnswerSettings
from ._availability import Availability, CooldownTracker
from ._contracts import CooldownPolicy, ToolSpec
from ._document_cache import DocumentCache
from ._execution import Executor, RunBudget, RunContext, Sleep
from ._execution.executor import RUN_EVENTS_ATTRIBUTE, plan_source
from ._execution.hops import DEFAULT_MAX_HOPS
from ._execution.scopes import InvocationScope
from ._execution.sinks import EventBus, EventSink
from ._health.background import Background
from ._health.pending import PendingRoutes
from ._health.service import HealthService
from ._health_controls import HealthControls
from ._inspection import DocumentsSnapshot, RouterSnapshot, router_snapshot
from ._planning import Plan, PlanRequest, planned
from ._planning.requests import as_request
from ._registry import BindingState, Invoker, Registry
from ._settings import DEFAULT_MAX_RESPONSE_BYTES, Clock, Resolver, SchemaRouterSettings
from ._sources import DataSources
from ._sync import run_sync
from .errors import ConfigurationError, SchemaRouterError
from .events import GatherResult, RouterEvent, RunEndEvent, RunErrorEvent, RunStartEvent, ToolResult
from .stores import AnswerCache, AvailabilityStore, MemoryAvailabilityStore, RateLimiterBackend

if TYPE_CHECKING:
    import httpx

    from .adapters._clients import HttpClients
    from .adapters._network import NetworkPolicy
    from .config import RouterConfig

SINK_GRACE_SECONDS = 5.0
"""How long sinks may take to hear ``run.error`` of a cancelled run before it is abandoned."""


class SchemaRouter(AnswerSettings, DataSources, HealthControls):
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

    The keywords become one frozen :class:`~schemarouter_integrations.config.SchemaRouterSettings`
    (``router.settings``, :mod:`._settings`); ``settings=`` gives that object instead of them,
    as :meth:`from_config` does. The methods live by job in the classes this one joins:
    ``add_url``, ``add_optimade_federation``, ``add_callable`` and ``add_mcp`` in
    :class:`._sources.DataSources`; ``set_cache_policy``, ``cache_policy`` and
    ``set_rate_limit`` in :class:`._answer_settings.AnswerSettings`; the marks, probes, the
    health monitor, ``async with`` and ``aclose`` in :class:`._health_controls.HealthControls`;
    registration, planning, execution and ``inspect`` here.
    """

    def __init__(
        self,
        cooldown: CooldownPolicy | None = None,
        clock: Clock | None = None,
        availability_store: AvailabilityStore | None = None,
        *,
        sleep: Sleep | None = None,
        rng: random.Random | None = None,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
        http_client: httpx.AsyncClient | None = None,
        allow_private_networks: bool = False,
        resolver: Resolver | None = None,
        document_cache: str | os.PathLike[str] | None = None,
        answer_cache: AnswerCache | None = None,
        rate_limiter: RateLimiterBackend | None = None,
        max_hops: int = DEFAULT_MAX_HOPS,
        settings: SchemaRouterSettings | None = None,
    ) -> None:
        keywords = SchemaRouterSettings.from_keywords(
            cooldown, clock, sleep, availability_store=availability_store, rng=rng,
            max_response_bytes=max_response_bytes, http_client=http_client,
            allow_private_networks=allow_private_networks, resolver=resolver,
            document_cache=document_cache, answer_cache=answer_cache, rate_limiter=rate_limiter,
            max_hops=max_hops,
        )  # fmt: skip
        if settings is not None and not isinstance(settings, SchemaRouterSettings):
            raise ConfigurationError(f"settings must be SchemaRouterSettings, got {type(settings).__name__}")
        if settings is not None and keywords != SchemaRouterSettings():
            raise ConfigurationError("give the settings object or keyword settings, not both")
        self.settings: SchemaRouterSettings = settings or keywords
        """Every setting of this router, frozen (:mod:`._settings`)."""
        self._build(self.settings)

    def _build(self, settings: SchemaRouterSettings) -> None:
        """The router's services, each given its settings when it is made."""
        folder = settings.document_cache
        self.document_cache = DocumentCache(folder) if folder is not None else None
        self.clock: Clock = settings.clock
        self.availability_store = settings.availability_store or MemoryAvailabilityStore()
        self.availability_store.attach(self.clock)
        self.registry = Registry()
        self.cooldowns = CooldownTracker(settings.cooldown, self.availability_store, self.clock)
        self.events = EventBus()
        self.max_response_bytes = settings.max_response_bytes
        self._availability = Availability(self.cooldowns, self.registry.origin_of, self.registry.paths_on)
        self._setup_answers(settings)
        self._executor = Executor(
            self.registry,
            self._availability,
            sleep=settings.sleep,
            rng=settings.rng,
            late_events=self.events.publish,
            answers=self._answers,
            gate=self.rate_gate,
        )
        self._health = HealthService(self.registry, self._availability, self.events, self.clock)
        self._pending = PendingRoutes(sleep=settings.sleep, rng=settings.rng)
        self._background = Background(
            self.availability_store, self._health, sleep=settings.sleep, pending=self._pending
        )
        self._given_http_client = settings.http_client
        self._http_clients: HttpClients | None = None
        self.allow_private_networks = settings.allow_private_networks
        self._resolver = settings.resolver
        self._network: NetworkPolicy | None = None
        self._closers: list[Callable[[], Awaitable[None]]] = []  # adapters' sessions, run by aclose()
        self._setup_hops(settings.max_hops)

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
    def sleep(self) -> Sleep:
        """The sleep used between retries and by the health monitor (injectable for tests)."""
        return self.settings.sleep

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
