"""What a plan lists as rejected besides the walk's own rejections.

Every route has one entry: a route the walk tried and rejected keeps the walk's reason; a
candidate of the primary's pool that the walk never reached gets the reason it was not
needed (fallback disabled, chain full, another provider, another reading of the need); every
other route keeps the reason it does not serve the need. Computed only when read.

The walk's rejections are ordered by :func:`closeness` (the planner sorts them once per plan,
when there are several), so the reason closest to an answer leads ``Plan.rejected``,
``explain()`` and a ``NoRouteError``.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

from .models import PlanRequest
from .ordering import Candidate, Ordering

Rejections = list[tuple[str, str, str]]


def not_preferred(name: str, *, pending: bool) -> str:
    """The warning for a preferred tool that is not registered: pending (declared, its source
    not read yet, retried in the background) or unknown."""
    if pending:
        return (
            f"preferred tool {name!r} is pending (declared but not registered yet: its source "
            "could not be read; retried in the background), so nothing was preferred for it"
        )
    return (
        f"preferred tool {name!r} is not registered, so nothing was preferred for it; "
        "check the name or register it"
    )


def closeness(rejection: tuple[str, str, str]) -> tuple[int, int]:
    """How close a route the walk rejected is to answering (lower first): a cooldown (it
    answers when it reopens), then arguments that break its input schema (a value to fix),
    then a binding that is not ready, then argument names it does not take (fewer first),
    then the read-only policy."""
    reason = rejection[2]
    if reason.startswith("unavailable:"):
        return (0, 0)
    if reason.startswith("arguments do not fit"):
        return (1, 0)
    if reason.startswith("binding is"):
        return (2, 0)
    if reason.startswith("does not accept"):
        return (3, reason.count(","))
    return (4, 0)


@dataclass(eq=False)
class Shown:
    """The rejections of a plan besides the walk's own, computed when first read.

    *pool* holds the candidates the chain came from (the full ones, or the partial tier of
    the primary); its candidates the walk never reached are *unreached*. After a partial
    search, the routes it visited and the primary's tier are left out of *not_serving* (each
    route has one entry); the lower tiers keep their "exposes no field" reason.
    """

    ordering: Ordering
    pool: Ordering
    request: PlanRequest
    visited: set[str]
    rejected: Rejections
    primary: Candidate | None
    _: KW_ONLY
    searched: bool

    def _listed(self) -> set[str]:
        """Paths of partial candidates that have an entry elsewhere than in not_serving (or
        are in the chain): the primary's tier and the routes the walk rejected."""
        full = {c.route.path for c in self.ordering.ranked}
        paths = {c.route.path for c in self.pool.ranked} if self.pool is not self.ordering else set()
        paths.update(f"{tool}.{endpoint}" for tool, endpoint, _ in self.rejected)
        return paths - full

    def not_serving(self) -> list[tuple[str, str, str]]:
        rows = self.ordering.not_serving
        if not self.searched:
            return rows
        listed = self._listed()
        return [row for row in rows if f"{row[0]}.{row[1]}" not in listed]

    def count(self) -> int:
        """How many rejections the plan holds: routes not serving the reading, candidates the
        walk rejected and (with a primary) candidates of its pool it never reached."""
        unreached = 0
        if self.primary is not None:
            unreached = sum(1 for c in self.pool.ranked if c.route.path not in self.visited)
        rows = self.ordering.not_serving_count()
        if self.searched:
            rows -= len(self._listed())
        return rows + len(self.rejected) + unreached

    def unreached(self) -> Rejections:
        """Reasons for the candidates of the pool the walk never reached."""
        primary = self.primary
        if primary is None:
            return []
        request = self.request
        provider = primary.provider
        out: Rejections = []
        for candidate in self.pool.ranked:
            if candidate.route.path in self.visited:
                continue
            if request.fallback_scope == "disabled":
                reason = f"fallback is disabled; {primary.route.path} is the primary"
            elif provider is None:
                reason = f"primary {primary.tool!r} has no explicit provider, so no fallback is compiled"
            elif candidate.missing != primary.missing:
                reason = (
                    f"serves another part of the need (missing {', '.join(candidate.missing)}) "
                    f"than the primary (missing {', '.join(primary.missing)})"
                )
            elif candidate.need.sids != primary.need.sids:
                theirs = ", ".join(candidate.need.sids) or "no specific field"
                ours = ", ".join(primary.need.sids) or "no specific field"
                reason = f"reads the query as another need ({theirs}) than the primary ({ours})"
            elif candidate.provider is None and candidate.provider != provider:
                reason = "has no explicit provider; cross-provider fallback needs one"
            elif candidate.provider != provider and request.fallback_scope == "same_provider":
                reason = f"provider {candidate.provider!r} differs from {provider!r} (scope same_provider)"
            else:
                reason = f"chain is full (max_fallbacks={request.max_fallbacks})"
            out.append((candidate.tool, candidate.route.endpoint.name, reason))
        return out
