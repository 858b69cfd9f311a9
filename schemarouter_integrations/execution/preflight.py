"""Checking a whole chain before its primary runs."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import NoRouteError, PolicyViolationError, StaleFingerprintError
from ..health import CooldownTracker
from ..planning import Plan, ToolCall
from ..registry import Registry


@dataclass(frozen=True, slots=True)
class Pruned:
    call: ToolCall
    reason: str


def _drift(call: ToolCall, registry: Registry) -> str | None:
    """Why *call* no longer matches the registry, or None."""
    spec = registry.tool(call.tool)
    if spec is None:
        return f"tool {call.tool!r} is no longer registered"
    endpoint = spec.endpoint(call.endpoint)
    if endpoint is None:
        return f"endpoint {call.access_path} no longer exists"
    if spec.fingerprint != call.tool_fingerprint or endpoint.fingerprint != call.endpoint_fingerprint:
        return f"the contract of {call.tool!r} changed after the plan was compiled"
    return None


def no_route_error(plan: Plan, cooldowns: CooldownTracker) -> NoRouteError:
    cooling = {}
    for rejection in plan.rejected:
        left = cooldowns.cooldown_left(rejection.access_path)
        if left is not None:
            cooling[rejection.access_path] = left
    reopens = min(cooling.values()) if cooling else None
    message = f"no eligible route for {plan.request.query!r}"
    if cooling:
        first = min(cooling, key=lambda p: (cooling[p], p))
        message += f"; in cooldown: {', '.join(sorted(cooling))}; {first} reopens in {reopens:.1f}s"
    elif plan.rejected:
        message += "; " + "; ".join(f"{r.access_path}: {r.reason}" for r in plan.rejected[:5])
    else:
        message += "; no tool is registered that could answer it"
    return NoRouteError(message, cooling_down=sorted(cooling), reopens_in_seconds=reopens)


def preflight(
    plan: Plan, registry: Registry, cooldowns: CooldownTracker
) -> tuple[list[ToolCall], list[Pruned]]:
    """The calls that may run, in order, and the optional fallbacks pruned from the chain.

    Raises ``NoRouteError`` for a plan without primary, ``PolicyViolationError`` when any
    call of an automatic chain is not read_only=True (nothing runs), and
    ``StaleFingerprintError`` when the primary's contract or binding drifted.
    """
    primary = plan.primary
    if primary is None:
        raise no_route_error(plan, cooldowns)
    calls = plan.calls
    if len(calls) > 1:
        for call in calls:
            spec = registry.tool(call.tool)
            endpoint = spec.endpoint(call.endpoint) if spec else None
            current = endpoint.read_only if endpoint else call.read_only
            if call.read_only is not True or current is not True:
                raise PolicyViolationError(
                    f"{call.access_path} is not read_only=True; an automatic fallback chain "
                    "may hold read-only calls only, so nothing was invoked"
                )
    drift = _drift(primary, registry)
    if drift:
        raise StaleFingerprintError(f"primary {primary.access_path}: {drift}; plan again")
    if registry.binding_state(primary.tool) == "stale":
        raise StaleFingerprintError(
            f"primary {primary.access_path}: its invoker is bound to an older contract; bind it again"
        )
    runnable = [primary]
    pruned: list[Pruned] = []
    for call in plan.fallbacks:
        reason = _drift(call, registry)
        if reason is None:
            state = registry.binding_state(call.tool)
            reason = None if state == "ready" else f"binding is {state}"
        if reason is None:
            runnable.append(call)
        else:
            pruned.append(Pruned(call, reason))
    return runnable, pruned
