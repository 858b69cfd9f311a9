"""Rate limits kept: a route (or a provider) at its limit waits for its turn, or is passed over.

:class:`RateGate` holds the :class:`RateLimit` of each route and provider and asks a
:class:`~schemarouter_integrations.stores.RateLimiterBackend` (GCRA in memory, or one Lua
script on Redis for a fleet) for a slot before every attempt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes as _lazy_attributes

if TYPE_CHECKING:
    from .gate import RateGate as RateGate


__all__, __getattr__, __dir__ = _lazy_attributes(
    globals(),
    {
        ".gate": ("RateGate",),
    },
)
