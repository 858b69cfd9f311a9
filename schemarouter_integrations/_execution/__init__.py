"""Execution: running compiled plans with retries, fallback, budgets and events.

The fallback decision is made in :mod:`.chain` (``falls_back`` and ``ChainRunner``).
"""

from ..events import EVENT_TYPES, RouterEvent, ToolResult
from .budget import BudgetMeter, RunBudget
from .chain import falls_back
from .context import RunContext
from .executor import Executor, PlanSource, Sleep

__all__ = [
    "EVENT_TYPES",
    "BudgetMeter",
    "Executor",
    "PlanSource",
    "RouterEvent",
    "RunBudget",
    "RunContext",
    "Sleep",
    "ToolResult",
    "falls_back",
]
