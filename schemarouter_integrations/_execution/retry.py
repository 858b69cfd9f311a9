"""Backoff between attempts: exponential, capped, full jitter, Retry-After honoured."""

from __future__ import annotations

import random

from .._contracts import RetryPolicy


def backoff_seconds(
    policy: RetryPolicy,
    failed_attempt: int,
    *,
    retry_after: float | None = None,
    rng: random.Random | None = None,
) -> float:
    """Seconds to wait after attempt *failed_attempt* (1-based) failed."""
    ceiling = min(policy.max_backoff_seconds, policy.backoff_seconds * 2 ** (failed_attempt - 1))
    delay = (rng or random).uniform(0.0, ceiling) if policy.jitter else ceiling
    if retry_after is not None and retry_after > delay:
        delay = min(retry_after, policy.max_backoff_seconds)
    return max(delay, 0.0)
