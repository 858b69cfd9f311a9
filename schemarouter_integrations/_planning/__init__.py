"""Planning: pure, deterministic, no I/O."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes as _lazy_attributes

if TYPE_CHECKING:
    from .cache import arguments_known_valid as arguments_known_valid
    from .models import FieldEvidence as FieldEvidence
    from .models import Plan as Plan
    from .models import PlanRequest as PlanRequest
    from .models import Rejection as Rejection
    from .models import ToolCall as ToolCall
    from .need import need_from_fields as need_from_fields
    from .need import need_from_query as need_from_query
    from .planner import CooldownView as CooldownView
    from .planner import compile_plan as compile_plan
    from .reuse import planned as planned


__all__, __getattr__, __dir__ = _lazy_attributes(
    globals(),
    {
        ".cache": ("arguments_known_valid",),
        ".models": ("FieldEvidence", "Plan", "PlanRequest", "Rejection", "ToolCall"),
        ".need": ("need_from_fields", "need_from_query"),
        ".planner": ("CooldownView", "compile_plan"),
        ".reuse": ("planned",),
    },
)
