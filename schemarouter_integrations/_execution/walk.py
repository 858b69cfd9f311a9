"""Where a run stands in its chain of steps, and what it ends with when no step is left."""

from __future__ import annotations

from dataclasses import dataclass

from .._planning import ToolCall
from ..errors import AllRoutesUnavailableError, NoRouteError, SchemaRouterError
from .context import RunContext
from .outcomes import Answered, FallbackReason, Unavailable
from .preflight import Step

__all__ = ["Walk", "no_binding", "skipped", "won"]


@dataclass(slots=True)
class Walk:
    """Where a run stands in its chain: the step, the route the next ``tool.fallback``
    leaves (None: no route ran yet), and why it is left."""

    position: int = 0
    left: ToolCall | None = None
    reason: FallbackReason = "unavailable"

    def ended(
        self, ctx: RunContext, call: ToolCall, outcome: Answered | Unavailable | None, steps: int
    ) -> bool:
        """Take how the current step ended (*call*: the call that ended it, after *steps* steps
        of the chain): True when it answered the run (the winner is on *ctx*), else move on."""
        if isinstance(outcome, Answered):
            won(ctx, call, outcome)
            return True
        self.left, self.position = call, self.position + steps
        self.reason = outcome.reason if isinstance(outcome, Unavailable) else "unavailable"
        return False


def won(ctx: RunContext, call: ToolCall, outcome: Answered) -> None:
    """*call* answered the run: its records and counts on *ctx*."""
    ctx.winner, ctx.records, ctx.provenance = call, outcome.records, outcome.provenance
    ctx.total, ctx.more = outcome.total, outcome.more


def skipped(steps: list[Step]) -> str:
    """What a run that called nothing left out: paths whose origin cooled after planning."""
    origins = sorted({s.spec.origin for s in steps if s.spec.origin is not None})
    paths = ", ".join(s.call.access_path for s in steps)
    return f"{paths} (not called: their origin {', '.join(origins)} cools down)" if origins else paths


def no_binding(call: ToolCall, ctx: RunContext) -> SchemaRouterError:
    failed = ctx.failed_attempts()
    if failed:
        return AllRoutesUnavailableError(
            f"every route was unavailable; the last one, {call.access_path}, has no ready binding",
            attempts=failed,
        )
    return NoRouteError(
        f"{call.access_path} has no invoker bound to its current contract and no bound "
        "alternative is left in the chain"
    )
