"""The result of a run (:class:`ToolResult`) and of a gather (:class:`GatherResult`).

Re-exported by :mod:`schemarouter_integrations.events`, where applications import them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from . import _settling
from . import errors as _errors
from ._event_model import AnyRouterEvent
from ._planning.models import Plan as _Plan
from .errors import AttemptRecord

__all__ = ["GatherResult", "Provenance", "ToolResult"]


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
