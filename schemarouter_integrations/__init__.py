"""schemarouter-integrations: one dependable data tool over many access paths.

Contracts -> planning (pure) -> execution (retries, fallback, budgets, events) -> health
(cooldowns, probes). Framework packages live in ``schemarouter_integrations.langchain`` and
``schemarouter_integrations.llamaindex`` and are never imported from here.
"""

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
