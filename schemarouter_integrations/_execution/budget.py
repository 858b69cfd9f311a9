"""Run budgets: every fallback is charged like the primary."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ..errors import BudgetExceededError


class RunBudget(BaseModel):
    """Limits for one run: logical tool calls, attempts and summed ``cost_units``.

    Each call of the chain that actually runs (the primary and every fallback) is one tool
    call; each invocation, retries included, is one attempt and costs the endpoint's
    ``cost_units``. ``None`` means no limit.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_tool_calls: int | None = Field(default=None, ge=0)
    max_attempts: int | None = Field(default=None, ge=0)
    max_cost_units: float | None = Field(default=None, ge=0.0)


NO_LIMITS = RunBudget()
"""The budget of a run given none (one frozen instance, not one per run)."""


class BudgetMeter:
    """Charges a run's calls and attempts; raises before a charge would pass the budget.

    A charge is all or nothing: when any limit would be passed nothing is counted.
    """

    def __init__(self, budget: RunBudget | None) -> None:
        self.budget = budget or NO_LIMITS
        self.tool_calls = 0
        self.attempts = 0
        self.cost_units = 0.0

    def release(self) -> None:
        """Lift every limit: the run ended and calls still finishing are no longer its own."""
        self.budget = NO_LIMITS

    def charge_call(self, path: str, cost_units: float) -> None:
        """Charge a new logical call on *path* together with its first attempt."""
        limit = self.budget.max_tool_calls
        if limit is not None and self.tool_calls + 1 > limit:
            raise BudgetExceededError(
                f"calling {path} would be tool call {self.tool_calls + 1} of max_tool_calls={limit}"
            )
        self._check_attempt(path, cost_units)
        self.tool_calls += 1
        self._commit_attempt(cost_units)

    def charge_attempt(self, path: str, cost_units: float) -> None:
        """Charge one more attempt (a retry) of the current call."""
        self._check_attempt(path, cost_units)
        self._commit_attempt(cost_units)

    def _check_attempt(self, path: str, cost_units: float) -> None:
        limit = self.budget.max_attempts
        if limit is not None and self.attempts + 1 > limit:
            raise BudgetExceededError(
                f"attempt {self.attempts + 1} on {path} would pass max_attempts={limit}"
            )
        cost_limit = self.budget.max_cost_units
        if cost_limit is not None and self.cost_units + cost_units > cost_limit + 1e-9:
            raise BudgetExceededError(
                f"{path} costs {cost_units} units and {self.cost_units} of "
                f"max_cost_units={cost_limit} are spent"
            )

    def _commit_attempt(self, cost_units: float) -> None:
        self.attempts += 1
        self.cost_units += cost_units
