"""The router's answer cache, cache policies and rate limits (``_caching``, ``_ratelimit``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ._caching import PolicyBook
from ._contracts import CachePolicy, RateLimit
from ._execution.answers import AnswerService
from ._planning import Plan, PlanRequest, ToolCall, compile_plan
from ._ratelimit import RateGate
from .errors import ConfigurationError
from .stores import RateLimiterBackend

if TYPE_CHECKING:
    from ._availability import Availability
    from ._registry import Registry
    from ._settings import SchemaRouterSettings
    from .stores import AvailabilityStore


class AnswerSettings:
    """``answer_cache``, ``cache_policy``, ``set_cache_policy`` and ``set_rate_limit``.

    ``answer_cache`` (:class:`MemoryAnswerCache`, or ``stores.RedisAnswerCache`` for a fleet)
    serves recent answers again under a :class:`CachePolicy` (see ``_execution/answers.py``);
    ``rate_limiter`` keeps the routes' :class:`RateLimit` state (default: in this process, or
    on Redis when the availability store is ``RedisAvailabilityStore``, the store's own
    ``rate_limits`` for ``SqliteStore`` and ``RedisStore``).
    """

    clock: Callable[[], float]
    availability_store: AvailabilityStore
    registry: Registry
    _availability: Availability

    def _setup_answers(self, settings: SchemaRouterSettings) -> None:
        """The answer cache and the rate gate, made before the executor that is given them."""
        cache, limiter = settings.answer_cache, settings.rate_limiter  # checked by the settings
        self.answer_cache = cache
        self.cache_policies = PolicyBook()
        self._answers: AnswerService | None = None
        if cache is not None:
            cache.attach(self.clock)
            self._answers = AnswerService(
                cache, self.cache_policies, self._healthy_plan, self._cooling, self.registry
            )
        store = self.availability_store
        if limiter is None and isinstance(getattr(store, "rate_limits", None), RateLimiterBackend):
            limiter = store.rate_limits  # type: ignore[attr-defined]  # SqliteStore, RedisStore
        if limiter is None and getattr(store, "kind", None) == "redis":
            from .stores import RedisRateLimiter

            limiter = RedisRateLimiter(store._url, store.namespace)  # type: ignore[attr-defined]
        self.rate_gate = RateGate(limiter, settings.sleep, self.clock)

    def _healthy_plan(self, request: PlanRequest) -> Plan:
        """The chain as if every route were healthy (stale answers may come from any of it)."""
        return compile_plan(request, self.registry, _never_cooling, executable_only=True)

    def _cooling(self, call: ToolCall) -> bool:
        return self._availability.cooldown_left(call.access_path) is not None

    @property
    def cache_policy(self) -> CachePolicy | None:
        """The tool-wide :class:`CachePolicy` (landscape ``[tool] cache``); a route's own policy
        and a request's win over it."""
        return self.cache_policies.default

    @cache_policy.setter
    def cache_policy(self, policy: CachePolicy | None) -> None:
        if policy is not None and not isinstance(policy, CachePolicy):
            raise ConfigurationError(f"cache_policy must be a CachePolicy, got {type(policy).__name__}")
        self.cache_policies.default = policy

    def set_cache_policy(self, route: str, policy: CachePolicy | None) -> None:
        """The :class:`CachePolicy` of a route: a tool name or one ``tool.endpoint`` (None: none)."""
        if policy is not None and not isinstance(policy, CachePolicy):
            raise ConfigurationError(f"cache must be a CachePolicy, got {type(policy).__name__}")
        self.cache_policies.set_route(route, policy)

    def set_rate_limit(self, tool: str, limit: RateLimit | None, *, provider: bool = False) -> None:
        """The :class:`RateLimit` of a tool's calls (``provider=True``: of every tool of that
        provider, together); None removes it."""
        if provider:
            self.rate_gate.set_provider(tool, limit)
        else:
            self.rate_gate.set_route(tool, limit)

    def _answers_snapshot(self) -> dict[str, object]:
        update: dict[str, object] = {
            "rate_limits": self.rate_gate.snapshot() if self.rate_gate.active else {}
        }
        if self._answers is not None:
            update["cache"] = self._answers.snapshot()
        return update

    async def _start_answers(self) -> None:
        if self.answer_cache is not None:
            await self.answer_cache.start()

    async def _close_answers(self) -> None:
        if self.answer_cache is not None:
            await self.answer_cache.aclose()
        await self.rate_gate.backend.aclose()


def _never_cooling(path: str) -> float | None:
    return None
