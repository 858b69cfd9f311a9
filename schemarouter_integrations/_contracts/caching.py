"""Answer-cache and rate-limit policies: ``CachePolicy`` and ``RateLimit``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import Field

from .base import NOT_GIVEN, Contract, with_first


class CachePolicy(Contract):
    """How long an answer may be served again without a call.

    ``ttl_seconds``: an answer younger than this is served fresh (``ToolResult.cached``).
    ``stale_if_error_seconds``: when every route of the chain is unavailable, an answer
    younger than this is served as stale (``ToolResult.stale``); ``0`` never serves stale.
    A route's own HTTP caching headers (``Cache-Control: max-age / no-store``, ``Expires``)
    or a :class:`~schemarouter_integrations.CacheHints` wrapper lower the TTL, never raise it.
    """

    ttl_seconds: float = Field(ge=0.0, allow_inf_nan=False)
    stale_if_error_seconds: float = Field(default=0.0, ge=0.0, allow_inf_nan=False)

    if TYPE_CHECKING:

        def __init__(self, ttl_seconds: float, stale_if_error_seconds: float = 0.0) -> None: ...

    else:

        def __init__(self, ttl_seconds: float = NOT_GIVEN, **options: Any) -> None:
            super().__init__(**with_first("ttl_seconds", ttl_seconds, options))

    @property
    def keep_seconds(self) -> float:
        """How long an entry is worth keeping: the longer of the fresh and the stale window."""
        return max(self.ttl_seconds, self.stale_if_error_seconds)


class RateLimit(Contract):
    """At most ``per_second`` calls a second on a route, bursts of ``burst`` (GCRA).

    ``burst=None`` is one second's worth (``per_second``). A call at the limit waits for its
    turn up to ``max_wait_seconds``; past that the route is passed over for this run
    (``tool.fallback`` reason ``"rate_limited"``, no cooldown).
    """

    per_second: float = Field(gt=0.0, allow_inf_nan=False)
    burst: float | None = Field(default=None, ge=1.0, allow_inf_nan=False)
    max_wait_seconds: float = Field(default=1.0, ge=0.0, allow_inf_nan=False)

    if TYPE_CHECKING:

        def __init__(
            self, per_second: float, burst: float | None = None, max_wait_seconds: float = 1.0
        ) -> None: ...

    else:

        def __init__(self, per_second: float = NOT_GIVEN, **options: Any) -> None:
            super().__init__(**with_first("per_second", per_second, options))

    @property
    def capacity(self) -> float:
        """The burst in calls: ``burst``, else one second's worth (at least one call)."""
        return self.burst if self.burst is not None else max(1.0, self.per_second)
