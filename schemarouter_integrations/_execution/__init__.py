"""Execution: running compiled plans with retries, fallback, budgets and events.

The fallback decision is made in :mod:`.attempts` (``falls_back``, per attempt) and
:mod:`.chain` (``ChainRunner``, between routes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes as _lazy_attributes

if TYPE_CHECKING:
    from .attempts import falls_back as falls_back
    from .budget import BudgetMeter as BudgetMeter
    from .budget import RunBudget as RunBudget
    from .context import RunContext as RunContext
    from .executor import Executor as Executor
    from .executor import PlanSource as PlanSource
    from .executor import Sleep as Sleep


__all__, __getattr__, __dir__ = _lazy_attributes(
    globals(),
    {
        ".budget": ("BudgetMeter", "RunBudget"),
        ".attempts": ("falls_back",),
        ".context": ("RunContext",),
        ".executor": ("Executor", "PlanSource", "Sleep"),
    },
)
