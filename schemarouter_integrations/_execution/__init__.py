"""Execution: running compiled plans with retries, fallback, budgets and events.

The fallback decision is made in :mod:`.chain` (``falls_back`` and ``ChainRunner``).
"""

from .budget import BudgetMeter, RunBudget
from .chain import falls_back
from .context import RunContext
from .executor import Executor, PlanSource, Sleep

__all__ = [
    "BudgetMeter",
    "Executor",
    "PlanSource",
    "RunBudget",
    "RunContext",
    "Sleep",
    "falls_back",
]
