"""Typed router events and the result of a run (:class:`ToolResult`, a gather's
:class:`GatherResult`); every event is a pydantic model and serialises to JSON.

Each event kind is one class here: declaring it registers its type in :data:`EVENT_TYPES`
(see :class:`RouterEvent`), and every face carries it from there.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from ._event_model import EVENT_TYPES, AnyRouterEvent, LogLevel, RouterEvent
from ._planning.models import CallScope
from ._results import GatherResult, Provenance, ToolResult
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
    "LogLevel",
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
    """An attempt failed as unavailable: the same route is tried again (attempt ``attempt``)
    after ``delay_seconds`` (``RetryPolicy``); ``error`` is the failure's message."""

    log_level: ClassVar[LogLevel] = "warning"
    type: Literal["tool.retry"] = "tool.retry"
    attempt: int
    delay_seconds: float
    error: str


class ToolErrorEvent(_RouteEvent):
    """The route's call failed for good after ``attempts`` attempts; ``retryable`` is True
    when the error means unavailable (the chain may fall back), False when it ends the run."""

    log_level: ClassVar[LogLevel] = "warning"
    type: Literal["tool.error"] = "tool.error"
    error_type: str
    error: str
    attempts: int
    retryable: bool


class _RouteChange(RouterEvent):
    """The run moving on from one route's call to the next one's."""

    from_tool: str
    from_endpoint: str
    to_tool: str
    to_endpoint: str


class ToolFallbackEvent(_RouteChange):
    """The chain moves on to the next route (``reason``: why the last one gave up);
    ``same_provider`` tells whether both routes belong to one provider."""

    log_level: ClassVar[LogLevel] = "warning"
    type: Literal["tool.fallback"] = "tool.fallback"
    from_provider: str | None
    to_provider: str | None
    from_access_mode: str | None
    to_access_mode: str | None
    scope: CallScope
    same_provider: bool
    reason: Literal["unavailable", "binding_unavailable", "rate_limited", "loop"]


class ToolHedgeEvent(_RouteChange):
    """The current call had not answered after ``after_seconds``: the next call of the chain
    started as well (``HedgePolicy``); the first of the two to succeed answers the run."""

    type: Literal["tool.hedge"] = "tool.hedge"
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

    log_level: ClassVar[LogLevel] = "warning"
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
    """A health probe of the route ran for ``duration_ms``: ``ok``, or failed with ``error``
    and cooled the route down for ``cooldown_seconds``."""

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

    log_level: ClassVar[LogLevel] = "error"
    type: Literal["run.error"] = "run.error"
    error_type: str
    error: str
    route: list[str] = Field(default_factory=list)
    attempts: list[AttemptRecord] = Field(default_factory=list)
    exception: BaseException | None = Field(default=None, exclude=True, repr=False)
