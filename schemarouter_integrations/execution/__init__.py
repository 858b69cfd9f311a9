"""Execution: running compiled plans with retries, fallback, budgets and events."""

from .budget import BudgetMeter, RunBudget
from .context import RunContext
from .events import EVENT_TYPES, AttemptRecord, RouterEvent
from .executor import Executor
from .result import ToolResult

__all__ = [
    "EVENT_TYPES",
    "AttemptRecord",
    "BudgetMeter",
    "Executor",
    "RouterEvent",
    "RunBudget",
    "RunContext",
    "ToolResult",
]
