"""What planning derives from the registered contracts and keeps between plans.

The registry owns one :class:`PlanningCache` (``registry.derived(PlanningCache)``) and drops
it on every contract change, so nothing here can outlive the contracts it was computed from.
Argument verdicts depend on an endpoint's content only and are kept by its fingerprint in
:data:`ARGUMENT_VERDICTS`. Planning writes nowhere else: routes and contracts stay untouched.
"""

from __future__ import annotations

from .._bounded import BoundedCache
from .models import CallScope, Plan, ToolCall
from .need import Need
from .ordering import Ordering
from .reading import OrderingKey, Reading

CallKey = tuple[
    str, Need, str, CallScope, bool, tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]
]
"""Route path, need (with its surfaces), arguments key, scope, preferred or not, missing ids,
the query words no field surface read (they may name fields of the route), the need's
semantic ids that do not narrow the answer and the fields standing in for the missing."""

ReadingKey = tuple[str, str, tuple[str, ...] | None]
"""Query, arguments key, explicit fields."""

PlanKey = tuple[str, object, tuple[str, ...], tuple[str, ...] | None, str, int, bool]
"""Query, arguments key, preferred tools, explicit fields, fallback scope, max fallbacks and
executable only: every part of a request that planning reads (``reuse.py``)."""


class PlanningCache:
    """Readings of requests, candidate orderings, compiled calls and compiled plans."""

    __slots__ = ("calls", "orderings", "plans", "readings", "warned")

    def __init__(self) -> None:
        self.warned: set[tuple[str, ...]] = set()
        """Preferred tool names already logged as not registered (once per contract version)."""
        self.readings: BoundedCache[ReadingKey, Reading] = BoundedCache(4096)
        self.orderings: BoundedCache[OrderingKey, Ordering] = BoundedCache(1024)
        self.calls: BoundedCache[CallKey, ToolCall] = BoundedCache(8192)
        self.plans: BoundedCache[PlanKey, tuple[Plan, int, tuple[str, ...]]] = BoundedCache(1024)
        """Compiled plans with the registry version and the access paths whose cooldown they
        read (each was open): reused while both still hold (``reuse.py``)."""


ARGUMENT_VERDICTS: BoundedCache[str, BoundedCache[str, str | None]] = BoundedCache(4096)
"""Endpoint fingerprint -> arguments key -> why the endpoint refuses the arguments, or None.

Keyed by content (the fingerprint covers the input schema), so a verdict can never go stale
and survives contract changes of other tools; a pure memo, oldest entries leave first."""


def arguments_known_valid(endpoint_fingerprint: str, arguments_key: str) -> bool:
    """True when planning already found these arguments valid for this endpoint content, so
    a run of the same plan need not validate them again."""
    verdicts = ARGUMENT_VERDICTS.get(endpoint_fingerprint)
    return verdicts is not None and arguments_key in verdicts and verdicts[arguments_key] is None
