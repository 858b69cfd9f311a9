"""Contracts: fingerprinted, immutable descriptions of access paths."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes as _lazy_attributes

if TYPE_CHECKING:
    from .caching import CachePolicy, RateLimit
    from .endpoint import EndpointSpec, ToolSpec
    from .fields import FieldSpec, ServerProjectionSpec
    from .fingerprint import canonical_json, fingerprint_of
    from .policies import CooldownPolicy, HedgePolicy, RetryPolicy

__all__ = [
    "CachePolicy",
    "CooldownPolicy",
    "EndpointSpec",
    "FieldSpec",
    "HedgePolicy",
    "RateLimit",
    "RetryPolicy",
    "ServerProjectionSpec",
    "ToolSpec",
    "canonical_json",
    "fingerprint_of",
]

__getattr__, __dir__ = _lazy_attributes(
    globals(),
    {
        ".caching": ("CachePolicy", "RateLimit"),
        ".endpoint": ("EndpointSpec", "ToolSpec"),
        ".fields": ("FieldSpec", "ServerProjectionSpec"),
        ".fingerprint": ("canonical_json", "fingerprint_of"),
        ".policies": ("CooldownPolicy", "HedgePolicy", "RetryPolicy"),
    },
)
