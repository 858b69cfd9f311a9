"""Rate limits kept: a route (or a provider) at its limit waits for its turn, or is passed over.

:class:`RateGate` holds the :class:`RateLimit` of each route and provider and asks a
:class:`~schemarouter_integrations.stores.RateLimiterBackend` (GCRA in memory, or one Lua
script on Redis for a fleet) for a slot before every attempt.
"""

from .gate import RateGate

__all__ = ["RateGate"]
