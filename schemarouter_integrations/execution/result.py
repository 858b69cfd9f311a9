"""The result of a routed run."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from ..planning.models import Plan
from .events import AnyRouterEvent, AttemptRecord, RunEndEvent


class ToolResult(BaseModel):
    """Records in canonical field names, and the route that produced them.

    ``tool``/``endpoint`` name the route that actually succeeded; ``route`` lists the access
    paths tried, in order; ``attempts`` every attempt; ``events`` the run's events.
    """

    model_config = ConfigDict(frozen=True)

    tool: str
    endpoint: str
    provider: str | None
    access_mode: str | None
    records: list[dict[str, Any]]
    attempts: list[AttemptRecord]
    route: list[str]
    events: list[AnyRouterEvent]
    plan: Plan

    @property
    def access_path(self) -> str:
        return f"{self.tool}.{self.endpoint}"

    @property
    def fallbacks(self) -> int:
        """How many fallbacks the run took (``tool.fallback`` events, binding fallbacks included)."""
        return sum(1 for event in self.events if event.type == "tool.fallback")


# ``RunEndEvent.result`` names ToolResult, which needs the events first: resolve it here.
RunEndEvent.model_rebuild()
