"""What planning derives from the registered contracts and keeps between plans.

The registry owns one :class:`PlanningCache` (``registry.derived(PlanningCache)``) and drops
it on every contract change, so nothing here can outlive the contracts it was computed from.
Planning writes nowhere else: routes and contracts stay untouched.
"""

from __future__ import annotations

from .._lru import LruCache
from .models import CallScope, ToolCall
from .need import Need
from .ordering import Ordering

CallKey = tuple[str, Need, str, CallScope, bool]
"""Route path, need (with its surfaces), arguments key, scope, preferred or not."""


class PlanningCache:
    """Needs read from queries, candidate orderings, compiled calls and argument verdicts."""

    __slots__ = ("calls", "needs", "orderings", "verdicts")

    def __init__(self) -> None:
        self.needs: LruCache[str, Need] = LruCache(4096)
        self.orderings: LruCache[tuple[str, ...], Ordering] = LruCache(1024)
        self.calls: LruCache[CallKey, ToolCall] = LruCache(8192)
        self.verdicts: LruCache[tuple[str, str], str | None] = LruCache(16384)
        """(route path, arguments key) -> why the route refuses the arguments, None if it takes them."""
