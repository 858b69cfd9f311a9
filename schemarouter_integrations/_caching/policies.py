"""Which :class:`CachePolicy` applies: the request's, else the route's, else the tool's."""

from __future__ import annotations

from .._contracts import CachePolicy
from .._planning import PlanRequest, ToolCall


class PolicyBook:
    """Route policies (by tool name or ``tool.endpoint``) and the tool-wide default.

    ``default`` is the policy of the one tool the router is exposed as (landscape ``[tool]
    cache``); a route's own policy (``add_url(..., cache=)``, landscape per route) wins over
    it, and a request's (``PlanRequest(cache=)``, the framework tools' ``cache=``) over both.
    A policy with ``ttl_seconds=0`` and ``stale_if_error_seconds=0`` turns caching off.
    """

    def __init__(self) -> None:
        self.routes: dict[str, CachePolicy] = {}
        self.default: CachePolicy | None = None

    def set_route(self, name: str, policy: CachePolicy | None) -> None:
        if policy is None:
            self.routes.pop(name, None)
        else:
            self.routes[name] = policy

    def for_call(self, request: PlanRequest | None, call: ToolCall) -> CachePolicy | None:
        """The policy of *call* in a run of *request*, or None (not cached, not coalesced)."""
        if call.read_only is not True:
            return None
        policy = request.cache if request is not None else None
        if policy is None:
            routes = self.routes
            policy = routes.get(call.access_path) or routes.get(call.tool) if routes else None
        if policy is None:
            policy = self.default
        if policy is None or policy.keep_seconds <= 0:
            return None
        return policy
