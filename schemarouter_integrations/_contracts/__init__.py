"""Contracts: fingerprinted, immutable descriptions of access paths."""

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
