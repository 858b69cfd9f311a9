"""Contracts: fingerprinted, immutable descriptions of access paths."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes as _lazy_attributes

if TYPE_CHECKING:
    from .caching import CachePolicy as CachePolicy
    from .caching import RateLimit as RateLimit
    from .endpoint import EndpointSpec as EndpointSpec
    from .endpoint import ToolSpec as ToolSpec
    from .fields import FieldSpec as FieldSpec
    from .fields import ServerProjectionSpec as ServerProjectionSpec
    from .fingerprint import canonical_json as canonical_json
    from .fingerprint import fingerprint_of as fingerprint_of
    from .policies import CooldownPolicy as CooldownPolicy
    from .policies import HedgePolicy as HedgePolicy
    from .policies import RetryPolicy as RetryPolicy


__all__, __getattr__, __dir__ = _lazy_attributes(
    globals(),
    {
        ".caching": ("CachePolicy", "RateLimit"),
        ".endpoint": ("EndpointSpec", "ToolSpec"),
        ".fields": ("FieldSpec", "ServerProjectionSpec"),
        ".fingerprint": ("canonical_json", "fingerprint_of"),
        ".policies": ("CooldownPolicy", "HedgePolicy", "RetryPolicy"),
    },
)
