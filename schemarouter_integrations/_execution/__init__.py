"""Execution: running compiled plans with retries, fallback, budgets and events."""

from ..events import EVENT_TYPES, AttemptRecord, RouterEvent, ToolResult
from .budget import BudgetMeter, RunBudget
from .context import RunContext
from .executor import Executor

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
