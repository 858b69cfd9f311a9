"""Typed router events and the result of a run (:class:`ToolResult`, a gather's
:class:`GatherResult`); every event is a pydantic model and serialises to JSON."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from . import _settling
from . import errors as _errors
from ._planning.models import CallScope
from ._planning.models import Plan as _Plan
from .errors import AttemptRecord

__all__ = [
    "EVENT_TYPES",
    "AnyRouterEvent",
    "AttemptRecord",
    "CacheHitEvent",
    "CacheStaleEvent",
    "GatherResult",
    "HealthProbeEvent",
    "InnerFallback",
    "PlanCompiledEvent",
    "Provenance",
    "RouteAvailableEvent",
    "RouteInnerFallbackEvent",
    "RoutePrunedEvent",
    "RouteUnavailableEvent",
    "RouterEvent",
    "RunEndEvent",
    "RunErrorEvent",
    "RunStartEvent",
    "ToolEndEvent",
    "ToolErrorEvent",
    "ToolFallbackEvent",
    "ToolHedgeEvent",
    "ToolResult",
    "ToolRetryEvent",
    "ToolStartEvent",
]


class RouterEvent(BaseModel):
    """Base of every router event: ``type``, ``run_id`` (None outside runs), ``seq``, ``timestamp``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: str
    run_id: str | None = None
    seq: int = 0
    timestamp: float = Field(default_factory=time.time)

    def payload(self) -> dict[str, Any]:
        """The event's own fields, JSON-ready, without the envelope."""
        return self.model_dump(mode="json", exclude={"type", "run_id", "seq", "timestamp"})


class _RouteEvent(RouterEvent):
    tool: str
    endpoint: str
    provider: str | None = None
    access_mode: str | None = None

    @property
    def access_path(self) -> str:
        return f"{self.tool}.{self.endpoint}"


class RunStartEvent(RouterEvent):
    type: Literal["run.start"] = "run.start"
    query: str


class PlanCompiledEvent(RouterEvent):
    type: Literal["plan.compiled"] = "plan.compiled"
    need: list[str]
    primary: str | None
    fallbacks: list[str]
    rejected: int


class ToolStartEvent(_RouteEvent):
    type: Literal["tool.start"] = "tool.start"
    scope: CallScope
    arguments: dict[str, Any]
    server_projection: dict[str, str]


class ToolRetryEvent(_RouteEvent):
    type: Literal["tool.retry"] = "tool.retry"
    attempt: int
    delay_seconds: float
    error: str


class ToolErrorEvent(_RouteEvent):
    type: Literal["tool.error"] = "tool.error"
    error_type: str
    error: str
    attempts: int
    retryable: bool


class ToolFallbackEvent(RouterEvent):
    type: Literal["tool.fallback"] = "tool.fallback"
    from_tool: str
    from_endpoint: str
    to_tool: str
    to_endpoint: str
    from_provider: str | None
    to_provider: str | None
    from_access_mode: str | None
    to_access_mode: str | None
    scope: CallScope
    same_provider: bool
    reason: Literal["unavailable", "binding_unavailable", "rate_limited", "loop"]


class ToolHedgeEvent(RouterEvent):
    """The current call had not answered after ``after_seconds``: the next call of the chain
    started as well (``HedgePolicy``); the first of the two to succeed answers the run."""

    type: Literal["tool.hedge"] = "tool.hedge"
    from_tool: str
    from_endpoint: str
    to_tool: str
    to_endpoint: str
    after_seconds: float


class CacheHitEvent(_RouteEvent):
    """A fresh answer of this route was served from the answer cache, without a call.

    ``coalesced`` is True when the answer was shared from an identical question that was
    being answered at the same moment (in this process, or by a worker of the fleet).
    """

    type: Literal["cache.hit"] = "cache.hit"
    age_seconds: float
    ttl_seconds: float
    coalesced: bool = False


class CacheStaleEvent(_RouteEvent):
    """Every route of the chain was unavailable: an older answer of this route was served
    (younger than the policy's ``stale_if_error_seconds``)."""

    type: Literal["cache.stale"] = "cache.stale"
    age_seconds: float
    stale_if_error_seconds: float
    error: str


class ToolEndEvent(_RouteEvent):
    type: Literal["tool.end"] = "tool.end"
    records: int
    attempts: int
    duration_ms: float


class RoutePrunedEvent(_RouteEvent):
    """A fallback left out: in preflight, or during the run when its binding or contract
    changed after preflight (it never started, so no ``tool.fallback`` leaves it)."""

    type: Literal["route.pruned"] = "route.pruned"
    reason: str


class RouteUnavailableEvent(_RouteEvent):
    """A route cools down; ``origin`` names its service when the whole origin cools with it
    (every access path on that ``scheme://host:port`` is out of planning as well)."""

    type: Literal["route.unavailable"] = "route.unavailable"
    cooldown_seconds: float
    failures: int
    reason: str | None = None
    origin: str | None = None


class InnerFallback(BaseModel):
    """A fallback another router took while answering this router's call (over MCP)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    from_path: str
    to_path: str
    reason: str
    scope: str | None = None


class RouteInnerFallbackEvent(_RouteEvent):
    """The route (another router, over MCP) fell back inside itself while answering: from
    ``from_path`` to ``to_path`` of *its* routes. This router's own chain did not move on,
    so this is never a ``tool.fallback``."""

    type: Literal["route.inner_fallback"] = "route.inner_fallback"
    from_path: str
    to_path: str
    reason: str
    scope: str | None = None


class RouteAvailableEvent(_RouteEvent):
    """A route is open again; ``origin`` names its service when that origin reopened too."""

    type: Literal["route.available"] = "route.available"
    reason: str
    origin: str | None = None


class HealthProbeEvent(_RouteEvent):
    type: Literal["health.probe"] = "health.probe"
    ok: bool
    error: str | None = None
    duration_ms: float
    cooldown_seconds: float | None = None


class RunEndEvent(RouterEvent):
    """The run's last event on success; ``result`` is the run's :class:`ToolResult`."""

    type: Literal["run.end"] = "run.end"
    tool: str
    endpoint: str
    fallbacks: int
    result: ToolResult | None = None


class RunErrorEvent(RouterEvent):
    """The run's last event on failure.

    ``exception`` is the raised error (not serialised); ``route`` and ``attempts`` say which
    access paths ran before the run ended and how each attempt ended.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    type: Literal["run.error"] = "run.error"
    error_type: str
    error: str
    route: list[str] = Field(default_factory=list)
    attempts: list[AttemptRecord] = Field(default_factory=list)
    exception: BaseException | None = Field(default=None, exclude=True, repr=False)


EVENT_TYPES: dict[str, type[RouterEvent]] = {
    cls.model_fields["type"].default: cls
    for cls in (
        RunStartEvent,
        PlanCompiledEvent,
        ToolStartEvent,
        ToolRetryEvent,
        ToolErrorEvent,
        ToolFallbackEvent,
        ToolHedgeEvent,
        ToolEndEvent,
        CacheHitEvent,
        CacheStaleEvent,
        RoutePrunedEvent,
        RouteUnavailableEvent,
        RouteAvailableEvent,
        RouteInnerFallbackEvent,
        HealthProbeEvent,
        RunEndEvent,
        RunErrorEvent,
    )
}


AnyRouterEvent = Annotated[
    RunStartEvent
    | PlanCompiledEvent
    | ToolStartEvent
    | ToolRetryEvent
    | ToolErrorEvent
    | ToolFallbackEvent
    | ToolHedgeEvent
    | ToolEndEvent
    | CacheHitEvent
    | CacheStaleEvent
    | RoutePrunedEvent
    | RouteUnavailableEvent
    | RouteAvailableEvent
    | RouteInnerFallbackEvent
    | HealthProbeEvent
    | RunEndEvent
    | RunErrorEvent,
    Field(discriminator="type"),
]
"""Any concrete router event, told apart by ``type`` (so event lists round-trip through JSON)."""


class Provenance(BaseModel):
    """Where an answer relayed from other routers (over MCP) came from: the innermost
    router's ``answered_by`` access path, ``provider`` and ``route``; ``chain`` is every
    level's ``answered_by``, outermost first (this router's route to the next router, ...,
    the innermost answerer last)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    answered_by: str
    provider: str | None = None
    route: list[str] = Field(default_factory=list)
    chain: list[str] = Field(default_factory=list)


class ToolResult(BaseModel):
    """Records in canonical field names, and the route that produced them.

    ``tool``/``endpoint``: the route that succeeded; ``route``: the paths tried, in order; ``cached``:
    served from the answer cache (``age_seconds`` old); ``stale``: every route was unavailable and an
    older cached answer was served; ``total``: the source's count, when it reports one; ``truncated``:
    records were left out (cut at ``PlanRequest.max_records``, or the source holds more)."""

    model_config = ConfigDict(frozen=True)

    tool: str
    endpoint: str
    provider: str | None
    access_mode: str | None
    records: list[dict[str, Any]]
    attempts: list[AttemptRecord]
    route: list[str]
    events: list[AnyRouterEvent]
    plan: _Plan
    cached: bool = False
    stale: bool = False
    age_seconds: float | None = None
    provenance: Provenance | None = None
    """For an answer from another router over MCP: that router's answer (see :class:`Provenance`)."""
    total: int | None = None
    truncated: bool = False

    @property
    def access_path(self) -> str:
        return f"{self.tool}.{self.endpoint}"

    @property
    def fallbacks(self) -> int:
        """How many fallbacks the run took (``tool.fallback`` events, binding fallbacks included)."""
        return sum(1 for event in self.events if event.type == "tool.fallback")

    # A run nobody listened to builds its events on first access (``_execution/context.py``,
    # ``_settling.py``): until then every reader settles them first.
    if not TYPE_CHECKING:

        def __getattr__(self, name: str) -> Any:
            if name == "events":
                return _settling.settled(self)["events"]
            return super().__getattr__(name)

    def __eq__(self, other: object) -> bool:
        _settling.settled(self)
        if isinstance(other, ToolResult):
            _settling.settled(other)
        return super().__eq__(other)

    __hash__ = BaseModel.__hash__

    @model_serializer(mode="wrap")  # no return annotation: it would become the serialization schema
    def _serialize_settled(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        _settling.settled(self)
        return handler(self)


for _name in _settling.SETTLING:
    setattr(ToolResult, _name, _settling.settling(_name))
del _name


class GatherResult(BaseModel):
    """What ``router.gather`` collected: one :class:`ToolResult` per route that answered, in plan
    order; ``failures``: each route that did not answer -> its error; ``events``: the gather's."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    results: list[ToolResult]
    failures: dict[str, _errors.SchemaRouterError] = Field(default_factory=dict)
    events: list[AnyRouterEvent] = Field(default_factory=list)
    plan: _Plan

    @property
    def records(self) -> list[dict[str, Any]]:
        """Every record, tagged with the ``provider`` and ``tool`` that returned it (the tags
        win over fields of the same name)."""
        return [
            {**record, "provider": result.provider, "tool": result.tool}
            for result in self.results
            for record in result.records
        ]


# ``RunEndEvent.result`` and ``ToolResult.events`` refer to each other: resolve both here.
RunEndEvent.model_rebuild()
