"""The answer cache as one run sees it: reads that fit, locks, and stores that never fail a run.

An entry read back is used only when it is an answer of that access path whose records fit
the route's fields; anything else is a miss. The first cache failure of a run
(``ctx.cache_down``) skips the run's other cache operations: a store that fails fast costs
one timeout per question at most.
"""

from __future__ import annotations

import logging

from .._caching import CacheStats
from .._caching.entries import entry_fits
from .._contracts import CachePolicy
from .._planning import ToolCall
from .._registry import Registry
from ..stores import AnswerCache, AnswerEntry
from ..stores._breaker import StoreUnavailable
from .context import RunContext
from .outcomes import Answered

logger = logging.getLogger("schemarouter_integrations.cache")


class RunCache:
    """Reads, locks and writes of the answer cache on behalf of a run."""

    def __init__(self, cache: AnswerCache, stats: CacheStats, registry: Registry | None = None) -> None:
        self.cache = cache
        self.stats = stats
        self.registry = registry

    def fits(self, entry: AnswerEntry, call: ToolCall) -> bool:
        """True when *entry* is an answer of *call*'s access path whose records fit its fields."""
        spec = None if self.registry is None else self.registry.tool(call.tool)
        return entry_fits(entry, call, None if spec is None else spec.endpoint(call.endpoint))

    async def get(self, key: str, call: ToolCall, ctx: RunContext) -> AnswerEntry | None:
        """The cache's entry for *key* when it is an answer of *call*; a cache that fails is a
        miss (it never fails a run) and is not asked again in this run."""
        if ctx.cache_down:
            return None
        try:
            entry = await self.cache.get(key)
        except Exception as exc:
            self.down(ctx, "a lookup", exc)
            return None
        if entry is not None and not self.fits(entry, call):
            logger.warning("an answer-cache entry does not fit %s; treated as a miss", call.access_path)
            return None
        return entry

    async def lock(self, key: str, seconds: float, ctx: RunContext) -> bool:
        """The fleet lock for *key* for *seconds*; a cache that fails lets this worker go itself."""
        if ctx.cache_down:
            return True
        try:
            return await self.cache.lock(key, seconds)
        except Exception as exc:
            self.down(ctx, "a lock", exc)
            return True

    async def unlock(self, key: str, ctx: RunContext) -> None:
        """Release the fleet lock for *key* (a failure marks the cache down for this run)."""
        if ctx.cache_down:
            return
        try:
            await self.cache.unlock(key)
        except Exception as exc:
            self.down(ctx, "an unlock", exc)

    @staticmethod
    def down(ctx: RunContext, what: str, exc: Exception) -> None:
        """Mark the cache down for the rest of *ctx*'s run, saying *what* failed."""
        ctx.cache_down = True  # a store's own failure is logged by the store
        level = logging.DEBUG if isinstance(exc, StoreUnavailable) else logging.WARNING
        logger.log(
            level, "the answer cache failed %s (%s); a miss, no more cache work in this run", what, exc
        )

    def fresh_age(self, entry: AnswerEntry, policy: CachePolicy) -> float | None:
        """*entry*'s age when it is still fresh under *policy* and its own freshness, else None."""
        age = entry.age(self.cache.now())
        return age if age < min(policy.ttl_seconds, entry.fresh_seconds) else None

    async def store(
        self, key: str, policy: CachePolicy, call: ToolCall, answered: Answered, ctx: RunContext
    ) -> None:
        """Store *answered* under *key* for the policy's TTL bounded by the route's hints."""
        if ctx.cache_down:
            return
        hints = answered.hints
        if hints is not None and hints.no_store:
            self.stats.not_stored += 1
            return
        fresh = policy.ttl_seconds
        if hints is not None and hints.max_age_seconds is not None:
            fresh = max(0.0, min(fresh, hints.max_age_seconds))
        keep = max(fresh, policy.stale_if_error_seconds)
        if keep <= 0:
            self.stats.not_stored += 1
            return
        entry = AnswerEntry(
            path=call.access_path,
            records=answered.records,
            stored_at=self.cache.now(),
            fresh_seconds=fresh,
            provider=call.provider,
            access_mode=call.access_mode,
            total=answered.total,
            more=answered.more,
        )
        try:
            await self.cache.put(key, entry, keep)
            self.stats.stored += 1
        except Exception as exc:  # a cache error never fails a run
            self.down(ctx, f"to store an entry of {call.access_path}", exc)
