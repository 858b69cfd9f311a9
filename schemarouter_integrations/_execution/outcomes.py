"""What a call of the chain ends as, and the payloads of the events that report it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .._caching import CacheHints
from .._planning import ToolCall
from ..errors import InvocationUnavailableError, RateLimitedError, RoutingLoopError
from ..events import Provenance, RouterEvent

FallbackReason = Literal["unavailable", "binding_unavailable", "rate_limited", "loop"]


@dataclass(slots=True)
class Answered:
    """The call succeeded: its records, validated and projected to canonical names (built
    once per answered attempt, so not frozen: nothing changes it after it is built)."""

    records: list[dict[str, Any]]
    provenance: Provenance | None = None
    """Where the answer came from, when the invoker relayed another router's answer."""
    hints: CacheHints | None = None
    """The route's caching hints (HTTP headers or a :class:`CacheHints` wrapper), if any."""
    total: int | None = None
    """The source's count of matching records, when its answer reports one."""
    more: bool = False
    """The source said it holds more records than it sent."""
    events: tuple[RouterEvent, ...] = ()
    """What listeners hear of the attempt that answered (``tool.end`` last; none in a quiet
    run): the answered attempt is this one object, no verdict around it."""


@dataclass(frozen=True, slots=True)
class Unavailable:
    """The call's retries are exhausted (or a Retry-After hint is too long to wait for), or
    its rate limit gave no turn in time (``reason="rate_limited"``: passed over, not cooled),
    or the router behind it refused a loop (``reason="loop"``: passed over, not cooled)."""

    error: InvocationUnavailableError
    reason: FallbackReason = "unavailable"


def passed_over(exc: BaseException) -> FallbackReason | None:
    """The reason a route that raised *exc* is passed over without retry or cooldown
    (``"rate_limited"``, ``"loop"``), or None when *exc* means nothing of the kind."""
    if isinstance(exc, RateLimitedError):
        return "rate_limited"
    if isinstance(exc, RoutingLoopError):
        return "loop"
    return None


def tool_error_payload(
    call: ToolCall, exc: BaseException, attempts: int, *, retryable: bool
) -> dict[str, Any]:
    return {
        **call.ref.fields(),
        "error_type": type(exc).__name__,
        "error": str(exc),
        "attempts": attempts,
        "retryable": retryable,
    }


def fallback_payload(source: ToolCall, target: ToolCall, reason: FallbackReason) -> dict[str, Any]:
    return {
        "from_tool": source.tool,
        "from_endpoint": source.endpoint,
        "to_tool": target.tool,
        "to_endpoint": target.endpoint,
        "from_provider": source.provider,
        "to_provider": target.provider,
        "from_access_mode": source.access_mode,
        "to_access_mode": target.access_mode,
        "scope": target.scope,
        "same_provider": bool(source.provider) and source.provider == target.provider,
        "reason": reason,
    }
