"""Planning: pure, deterministic, no I/O."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes as _lazy_attributes

if TYPE_CHECKING:
    from .cache import arguments_known_valid
    from .models import FieldEvidence, Plan, PlanRequest, Rejection, ToolCall
    from .need import need_from_fields, need_from_query
    from .planner import CooldownView, compile_plan
    from .reuse import planned

__all__ = [
    "CooldownView",
    "FieldEvidence",
    "Plan",
    "PlanRequest",
    "Rejection",
    "ToolCall",
    "arguments_known_valid",
    "compile_plan",
    "need_from_fields",
    "need_from_query",
    "planned",
]

__getattr__, __dir__ = _lazy_attributes(
    globals(),
    {
        ".cache": ("arguments_known_valid",),
        ".models": ("FieldEvidence", "Plan", "PlanRequest", "Rejection", "ToolCall"),
        ".need": ("need_from_fields", "need_from_query"),
        ".planner": ("CooldownView", "compile_plan"),
        ".reuse": ("planned",),
    },
)
