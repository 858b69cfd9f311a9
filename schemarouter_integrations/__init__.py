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
    from ._caching import CacheHints as CacheHints
    from ._contracts import CachePolicy as CachePolicy
    from ._contracts import CooldownPolicy as CooldownPolicy
    from ._contracts import EndpointSpec as EndpointSpec
    from ._contracts import FieldSpec as FieldSpec
    from ._contracts import HedgePolicy as HedgePolicy
    from ._contracts import RateLimit as RateLimit
    from ._contracts import RetryPolicy as RetryPolicy
    from ._contracts import ServerProjectionSpec as ServerProjectionSpec
    from ._contracts import ToolSpec as ToolSpec
    from ._execution import RunBudget as RunBudget
    from ._planning import Plan as Plan
    from ._planning import PlanRequest as PlanRequest
    from ._planning import ToolCall as ToolCall
    from ._registry.reports import FederationReport as FederationReport
    from ._router import SchemaRouter as SchemaRouter
    from .errors import AllRoutesUnavailableError as AllRoutesUnavailableError
    from .errors import BudgetExceededError as BudgetExceededError
    from .errors import InvocationUnavailableError as InvocationUnavailableError
    from .errors import NonRetryableInvocationError as NonRetryableInvocationError
    from .errors import NoRouteError as NoRouteError
    from .errors import PlanningError as PlanningError
    from .errors import PolicyViolationError as PolicyViolationError
    from .errors import RateLimitedError as RateLimitedError
    from .errors import RegistrationError as RegistrationError
    from .errors import SchemaRouterError as SchemaRouterError
    from .errors import SchemaValidationError as SchemaValidationError
    from .errors import StaleFingerprintError as StaleFingerprintError
    from .events import GatherResult as GatherResult
    from .events import RouterEvent as RouterEvent
    from .events import ToolResult as ToolResult
    from .stores import MemoryAnswerCache as MemoryAnswerCache

__version__ = "0.1.0"

__all__, __getattr__, __dir__ = _lazy_attributes(
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
