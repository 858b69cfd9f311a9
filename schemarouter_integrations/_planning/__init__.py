"""Planning: pure, deterministic, no I/O."""

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
