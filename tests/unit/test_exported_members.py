"""The root package exports exactly the public API, sorted."""

from __future__ import annotations

import schemarouter_integrations

API_NAMES = {
    "CacheHints",
    "CachePolicy",
    "MemoryAnswerCache",
    "RateLimit",
    "RateLimitedError",
    "FederationReport",  # API.md: the OPTIMADE federation and gathering
    "GatherResult",
    "HedgePolicy",  # API.md: hedging
    "SchemaRouter",
    "ToolSpec",
    "EndpointSpec",
    "FieldSpec",
    "ServerProjectionSpec",
    "RetryPolicy",
    "CooldownPolicy",
    "PlanRequest",
    "Plan",
    "ToolCall",
    "ToolResult",
    "RunBudget",
    "RouterEvent",
    "SchemaRouterError",
    "RegistrationError",
    "PlanningError",
    "NoRouteError",
    "PolicyViolationError",
    "SchemaValidationError",
    "StaleFingerprintError",
    "InvocationUnavailableError",
    "NonRetryableInvocationError",
    "BudgetExceededError",
    "AllRoutesUnavailableError",
}


def test_every_api_name_imports_from_the_root() -> None:
    for name in API_NAMES:
        assert getattr(schemarouter_integrations, name) is not None


def test_all_is_sorted_and_complete() -> None:
    exported = schemarouter_integrations.__all__
    assert exported == sorted(exported)
    assert set(exported) == API_NAMES


def test_every_error_is_a_schemarouter_error() -> None:
    from schemarouter_integrations import errors

    for name in errors.__all__:
        obj = getattr(errors, name)
        if isinstance(obj, type) and issubclass(obj, Exception):
            assert issubclass(obj, schemarouter_integrations.SchemaRouterError)


def test_root_import_does_not_import_framework_packages() -> None:
    import subprocess
    import sys

    code = (
        "import sys, schemarouter_integrations; "
        "print(any(m.startswith(('langchain', 'llama_index', 'redis')) for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_misuse_errors_are_exported_from_the_errors_module_but_not_from_the_root() -> None:
    from schemarouter_integrations import errors

    misuse = {"ConfigurationError", "InvalidCallbackError", "LifecycleError"}
    assert misuse <= set(errors.__all__)
    assert errors.__all__ == sorted(errors.__all__)
    assert not misuse & set(schemarouter_integrations.__all__)


def test_misuse_errors_are_also_the_matching_builtin_errors() -> None:
    from schemarouter_integrations.errors import ConfigurationError, InvalidCallbackError, LifecycleError

    assert issubclass(ConfigurationError, ValueError)
    assert issubclass(InvalidCallbackError, ConfigurationError) and issubclass(
        InvalidCallbackError, TypeError
    )
    assert issubclass(LifecycleError, RuntimeError)
