"""schemarouter-integrations: one dependable data tool over many access paths.

Contracts -> planning (pure) -> execution (retries, fallback, budgets, events) -> health
(cooldowns, probes). Framework packages live in ``schemarouter_integrations.langchain`` and
``schemarouter_integrations.llamaindex`` and are never imported from here.
"""

from ._contracts import (
    CooldownPolicy,
    EndpointSpec,
    FieldSpec,
    HedgePolicy,
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
    RegistrationError,
    SchemaRouterError,
    SchemaValidationError,
    StaleFingerprintError,
)
from .events import GatherResult, RouterEvent, ToolResult

__all__ = [
    "AllRoutesUnavailableError",
    "BudgetExceededError",
    "CooldownPolicy",
    "EndpointSpec",
    "FederationReport",
    "FieldSpec",
    "GatherResult",
    "HedgePolicy",
    "InvocationUnavailableError",
    "NoRouteError",
    "NonRetryableInvocationError",
    "Plan",
    "PlanRequest",
    "PlanningError",
    "PolicyViolationError",
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
