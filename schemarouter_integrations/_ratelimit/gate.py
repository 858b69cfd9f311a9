"""Waiting for a turn: ``RateLimit`` per route and per provider, one backend for both."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from .._contracts import RateLimit
from .._planning import ToolCall
from ..errors import RateLimitedError
from ..stores import MemoryRateLimiter, RateLimiterBackend

Sleep = Callable[[float], Awaitable[None]]


@dataclass(slots=True)
class LimitStats:
    admitted: int = 0
    waited: int = 0
    wait_seconds: float = 0.0
    passed_over: int = 0
    rechecked: int = 0


class RateGate:
    """The rate limits of routes (by tool name) and providers (``provider:<id>``).

    A call reserves its turn, then sleeps until then. A caller that wakes later than its
    turn plus half an emission interval (the event loop stalled, the process was paused)
    does not go on that old turn, which calls still due would share: it checks again and
    takes a new turn (at most ``max_rechecks`` times, within the limit's max wait from the
    re-check), so the bound (``burst + w * per_second`` calls in any window of ``w`` seconds)
    holds for the times the calls really start.
    """

    max_rechecks = 8

    def __init__(self, backend: RateLimiterBackend | None, sleep: Sleep, clock: Callable[[], float]) -> None:
        self.backend = backend or MemoryRateLimiter(clock)
        self.clock = clock
        self.sleep = sleep
        self.routes: dict[str, RateLimit] = {}
        self.providers: dict[str, RateLimit] = {}
        self.stats: dict[str, LimitStats] = {}

    def set_route(self, tool: str, limit: RateLimit | None) -> None:
        _set(self.routes, tool, limit)

    def set_provider(self, provider: str, limit: RateLimit | None) -> None:
        _set(self.providers, provider, limit)

    def limits_of(self, call: ToolCall) -> list[tuple[str, RateLimit]]:
        found: list[tuple[str, RateLimit]] = []
        own = self.routes.get(call.tool)
        if own is not None:
            found.append((f"route:{call.tool}", own))
        if call.provider is not None:
            theirs = self.providers.get(call.provider)
            if theirs is not None:
                found.append((f"provider:{call.provider}", theirs))
        return found

    @property
    def active(self) -> bool:
        return bool(self.routes or self.providers)

    async def admit(self, call: ToolCall) -> float:
        """Wait for a turn under every limit of *call*; the seconds waited.

        Raises :class:`RateLimitedError` when a limit has no turn within its max wait.
        """
        waited = 0.0
        for key, limit in self.limits_of(call):
            waited += await self._turn(call, key, limit)
        return waited

    async def _turn(self, call: ToolCall, key: str, limit: RateLimit) -> float:
        """Wait for one turn under *limit*; again when the wake-up came too late for it."""
        stats = self.stats.setdefault(key, LimitStats())
        late_after = 0.5 / limit.per_second
        waited = 0.0
        for _ in range(self.max_rechecks + 1):
            wait = await self.backend.reserve(key, limit.per_second, limit.capacity, limit.max_wait_seconds)
            if wait is None:
                stats.passed_over += 1
                raise RateLimitedError(
                    f"{call.access_path} is at its rate limit ({key}: {limit.per_second:g}/s); no turn "
                    f"within {limit.max_wait_seconds:g}s, passed over for this run"
                )
            if wait <= 0:
                break
            turn = self.clock() + wait
            stats.waited += 1
            stats.wait_seconds += wait
            await self.sleep(wait)
            waited += wait
            if self.clock() - turn <= late_after:
                break
            stats.rechecked += 1
        else:
            stats.passed_over += 1
            raise RateLimitedError(f"{call.access_path} woke too late for its turn ({key}) again and again")
        stats.admitted += 1
        return waited

    def snapshot(self) -> dict[str, Any]:
        """Limits and their counters, for ``inspect()``."""
        limits = {f"route:{k}": v for k, v in self.routes.items()}
        limits.update({f"provider:{k}": v for k, v in self.providers.items()})
        return {
            "backend": self.backend.status(),
            "limits": {
                key: {
                    "per_second": limit.per_second,
                    "burst": limit.capacity,
                    "max_wait_seconds": limit.max_wait_seconds,
                    **_stats(self.stats.get(key)),
                }
                for key, limit in sorted(limits.items())
            },
        }


def _set(book: dict[str, RateLimit], name: str, limit: RateLimit | None) -> None:
    if limit is None:
        book.pop(name, None)
    elif not isinstance(limit, RateLimit):
        from ..errors import ConfigurationError

        raise ConfigurationError(f"rate_limit must be a RateLimit, got {type(limit).__name__}")
    else:
        book[name] = limit


def _stats(stats: LimitStats | None) -> dict[str, Any]:
    stats = stats or LimitStats()
    return {
        "admitted": stats.admitted,
        "waited": stats.waited,
        "wait_seconds": round(stats.wait_seconds, 6),
        "passed_over": stats.passed_over,
        "rechecked": stats.rechecked,
    }
