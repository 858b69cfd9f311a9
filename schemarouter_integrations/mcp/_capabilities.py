"""What the router's MCP server declares, and that it serves nothing else.

``MCPServer`` registers handlers for prompts and resources whether or not any exist. The
router's server declares a capability only while something backs it (a prompt, a resource
or template the application added), and a method of an undeclared capability is answered
like any unknown method: JSON-RPC -32601 (:func:`declare_only_what_exists`). A prompt that
cannot be got is a JSON-RPC error too (:func:`check_prompt_request`, :func:`prompt_error`),
not the SDK's catch-all code 0.
"""

from __future__ import annotations

from typing import Any

from mcp.types import ServerCapabilities

from ._sdk import INTERNAL_ERROR, INVALID_PARAMS, SDKServer, guard_requests, lowlevel, mcp_error

__all__ = ["CAPABILITY_METHODS", "check_prompt_request", "declare_only_what_exists", "prompt_error"]

CAPABILITY_METHODS: dict[str, tuple[str, ...]] = {
    "prompts": ("prompts/list", "prompts/get"),
    "resources": (
        "resources/list",
        "resources/templates/list",
        "resources/read",
        "resources/subscribe",
        "resources/unsubscribe",
    ),
}
"""The request methods of each capability the server declares only while it is backed."""

_CAPABILITY_OF = {method: name for name, methods in CAPABILITY_METHODS.items() for method in methods}


def declare_only_what_exists(server: SDKServer[Any]) -> None:
    """Make *server*'s capabilities, and the methods it answers, follow what it holds."""
    low = lowlevel(server)
    declared = low.get_capabilities

    def backed(capability: str) -> bool:
        if capability == "prompts":
            return bool(server._prompt_manager.list_prompts())
        resources = server._resource_manager
        return bool(resources.list_resources() or resources.list_templates())

    def capabilities(*args: Any, **kwargs: Any) -> ServerCapabilities:
        """Only what exists: no ``prompts``/``resources`` while none are registered."""
        found: ServerCapabilities = declared(*args, **kwargs)
        empty: dict[str, Any] = {name: None for name in CAPABILITY_METHODS if not backed(name)}
        return found.model_copy(update=empty) if empty else found

    def served(method: str) -> bool:
        """False (method not found) for an undeclared capability's method."""
        capability = _CAPABILITY_OF.get(method)
        return capability is None or backed(capability)

    low.get_capabilities = capabilities
    guard_requests(server, served)


def check_prompt_request(server: SDKServer[Any], name: str, arguments: dict[str, Any] | None) -> None:
    """Raise the spec's -32602 for an unknown prompt or missing required arguments."""
    prompt = server._prompt_manager.get_prompt(name)
    if prompt is None:
        raise mcp_error(INVALID_PARAMS, f"Unknown prompt: {name}", {"name": name})
    required = {argument.name for argument in prompt.arguments or () if argument.required}
    missing = sorted(required - set(arguments or {}))
    if missing:
        message = f"Missing required arguments: {', '.join(missing)}"
        raise mcp_error(INVALID_PARAMS, message, {"missing": missing})


def prompt_error(error: Exception) -> Exception:
    """A failure while rendering a prompt as the spec's internal error (-32603)."""
    return mcp_error(INTERNAL_ERROR, f"The prompt failed: {error}")
