"""schemarouter-integrations: one dependable data tool over many access paths.

Contracts -> planning (pure) -> execution (retries, fallback, budgets, events) -> health
(cooldowns, probes). Framework packages live in ``schemarouter_integrations.langchain`` and
``schemarouter_integrations.llamaindex`` and are never imported from here.

Every name loads its module on first use (``from schemarouter_integrations import SchemaRouter``
imports the router; ``import schemarouter_integrations`` alone imports nothing of it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._lazy import lazy_attributes as _lazy_attributes

if TYPE_CHECKING:
    from ._caching import CacheHints
    from ._contracts import (
        CachePolicy,
        CooldownPolicy,
        EndpointSpec,
        FieldSpec,
        HedgePolicy,
        RateLimit,
        RetryPolicy,
        ServerProjectionSpec,
        ToolSpec,
    )
    from ._execution import RunBudget
    from ._planning import Plan, PlanRequest, ToolCall
    from ._registry.reports import FederationReport
    from ._router import SchemaRouter
    from .errors import (
        AllRoutesUnavailableError,
        BudgetExceededError,
        InvocationUnavailableError,
        NonRetryableInvocationError,
        NoRouteError,
        PlanningError,
        PolicyViolationError,
        RateLimitedError,
        RegistrationError,
        SchemaRouterError,
        SchemaValidationError,
        StaleFingerprintError,
    )
    from .events import GatherResult, RouterEvent, ToolResult
    from .stores import MemoryAnswerCache

__all__ = [
    "AllRoutesUnavailableError",
    "BudgetExceededError",
    "CacheHints",
    "CachePolicy",
    "CooldownPolicy",
    "EndpointSpec",
    "FederationReport",
    "FieldSpec",
    "GatherResult",
    "HedgePolicy",
    "InvocationUnavailableError",
    "MemoryAnswerCache",
    "NoRouteError",
    "NonRetryableInvocationError",
    "Plan",
    "PlanRequest",
    "PlanningError",
    "PolicyViolationError",
    "RateLimit",
    "RateLimitedError",
    "RegistrationError",
    "RetryPolicy",
    "RouterEvent",
    "RunBudget",
    "SchemaRouter",
    "SchemaRouterError",
    "SchemaValidationError",
    "ServerProjectionSpec",
    "StaleFingerprintError",
    "ToolCall",
    "ToolResult",
    "ToolSpec",
]
__version__ = "0.1.0"

__getattr__, __dir__ = _lazy_attributes(
    globals(),
    {
        "._caching": ("CacheHints",),
        "._contracts": (
            "CachePolicy",
            "CooldownPolicy",
            "EndpointSpec",
            "FieldSpec",
            "HedgePolicy",
            "RateLimit",
            "RetryPolicy",
            "ServerProjectionSpec",
            "ToolSpec",
        ),
        "._execution": ("RunBudget",),
        "._planning": ("Plan", "PlanRequest", "ToolCall"),
        "._registry.reports": ("FederationReport",),
        "._router": ("SchemaRouter",),
        ".errors": (
            "AllRoutesUnavailableError",
            "BudgetExceededError",
            "InvocationUnavailableError",
            "NonRetryableInvocationError",
            "NoRouteError",
            "PlanningError",
            "PolicyViolationError",
            "RateLimitedError",
            "RegistrationError",
            "SchemaRouterError",
            "SchemaValidationError",
            "StaleFingerprintError",
        ),
        ".events": ("GatherResult", "RouterEvent", "ToolResult"),
        ".stores": ("MemoryAnswerCache",),
    },
    submodules=("errors", "events", "stores"),  # attributes of the package before it was lazy
)
