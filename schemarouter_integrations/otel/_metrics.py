"""Router metrics: fallbacks and route failures (counters), active cooldowns (gauge), run duration."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

from opentelemetry import metrics
from opentelemetry.metrics import CallbackOptions, Observation

from ..events import CacheHitEvent, CacheStaleEvent, RouterEvent, ToolErrorEvent, ToolFallbackEvent
from ._attributes import ERROR_TYPE, TOOL_NAME, attributes, error_type
from ._spans import RunEnded

CooldownCounts = Callable[[], dict[str | None, int]]
"""Active cooldowns by provider (``None``: a path whose tool names no provider)."""


class RouterMetrics:
    """The instruments of one instrumented router."""

    def __init__(self, meter: metrics.Meter, cooldowns: CooldownCounts) -> None:
        self._cooldowns = cooldowns
        self._active = True
        self.fallbacks = meter.create_counter(
            "schemarouter.fallbacks",
            unit="{fallback}",
            description="Fallbacks taken, by provider and reason.",
        )
        self.route_failures = meter.create_counter(
            "schemarouter.route.failures",
            unit="{failure}",
            description="Attempted routes that failed, by provider and error type.",
        )
        self.cache_answers = meter.create_counter(
            "schemarouter.cache.answers",
            unit="{answer}",
            description="Answers from the answer cache, by provider and kind (fresh, coalesced, stale).",
        )
        self.duration = meter.create_histogram(
            "schemarouter.run.duration", unit="s", description="Duration of router runs."
        )
        meter.create_observable_gauge(
            "schemarouter.cooldowns.active",
            callbacks=[self._observe_cooldowns],
            unit="{route}",
            description="Access paths in cooldown right now, by provider.",
        )

    def record(self, event: RouterEvent) -> None:
        if isinstance(event, ToolFallbackEvent):
            values = {
                "schemarouter.provider": event.from_provider,
                "schemarouter.to_provider": event.to_provider,
                "schemarouter.scope": event.scope,
                "schemarouter.reason": event.reason,
            }
            self.fallbacks.add(1, attributes(values))
        elif isinstance(event, ToolErrorEvent):
            values = {
                "schemarouter.provider": event.provider,
                "schemarouter.access_mode": event.access_mode,
                ERROR_TYPE: error_type(event.error_type, event.error),
            }
            self.route_failures.add(1, attributes(values))
        elif isinstance(event, CacheHitEvent | CacheStaleEvent):
            kind = (
                "stale" if isinstance(event, CacheStaleEvent) else "coalesced" if event.coalesced else "fresh"
            )
            self.cache_answers.add(
                1, attributes({"schemarouter.provider": event.provider, "schemarouter.cache": kind})
            )

    def ended(self, run: RunEnded) -> None:
        self.duration.record(run.seconds, attributes({TOOL_NAME: run.tool_name, ERROR_TYPE: run.error_type}))

    def stop(self) -> None:
        """Observe nothing more (an observable instrument cannot be removed from its meter)."""
        self._active = False

    def _observe_cooldowns(self, options: CallbackOptions) -> Iterable[Observation]:
        if not self._active:
            return []
        counts = Counter(self._cooldowns())
        return [
            Observation(n, attributes({"schemarouter.provider": provider})) for provider, n in counts.items()
        ]
