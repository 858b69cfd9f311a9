"""``Plan.reasons``: why the primary was chosen over the other candidates that serve the need.

Each reason names its stage and rule: ``check/<check>`` when the other candidate failed a
check of the planner (its arguments, a cooldown, its binding, the read-only policy),
``rank/preferred tools`` when the request named the primary's tool, else ``rank/<rule>`` for
the first ranking rule of :mod:`.rank` that tells the two apart.
"""

from __future__ import annotations

from collections.abc import Sequence

from .models import PlanRequest
from .ordering import Candidate, Ordering
from .rank import reason

MAX_REASONS = 3
"""Other candidates ``Plan.reasons`` compares the primary with (the first ones in walk order)."""


def reasons(
    primary: Candidate,
    pool: Ordering,
    request: PlanRequest,
    visited: set[str],
    rejected: Sequence[tuple[str, str, str]],
) -> list[str]:
    """Why *primary* was chosen over the first other candidates of its *pool*, in walk order:
    a check the other failed (``check/<check>``), the preferred tools (``rank/preferred
    tools``), or the first ranking rule that tells them apart (``rank/<rule>``)."""
    preferred = request.preferred_tools
    failed: dict[str, str] | None = None
    out: list[str] = []
    chosen = primary.route.path
    for other in pool.in_order(preferred):
        if other is primary:
            continue
        over = other.route.path
        why = None
        if over in visited:
            if failed is None:
                failed = {f"{tool}.{endpoint}": text for tool, endpoint, text in rejected}
            why = failed.get(over)
        if why is not None:
            out.append(f"check/{_check(why)}: {chosen} over {over}: {over} {why}")
        elif primary.tool in preferred and other.tool not in preferred:
            out.append(f"rank/preferred tools: {chosen} over {over}: {primary.tool!r} is in preferred_tools")
        else:
            out.append(reason(primary.rank, other.rank, chosen, over))
        if len(out) >= MAX_REASONS:
            break
    return out


def _check(why: str) -> str:
    """The check a walk rejection names (arguments, cooldown, binding, read-only policy)."""
    if why.startswith("unavailable:"):
        return "cooldown"
    if why.startswith(("arguments do not fit", "does not accept")):
        return "arguments"
    if why.startswith("binding is"):
        return "binding"
    return "policy"
