"""The deterministic planner: one primary route and a bounded, precompiled fallback chain.

Candidates are ordered by a documented key, smallest first:

1. position in ``preferred_tools`` (tools not named there come after all named ones);
2. evidence score, higher first: 2 per needed field served by semantic id or name, 1 per
   field served only by an alias, +1 when the endpoint can project fields server-side;
3. ``cost_units``, lower first;
4. tool name, then endpoint name.

The first candidate that passes every check becomes the primary. Fallbacks (only when the
primary has an explicit provider) are the next passing candidates of the same provider,
then, for ``cross_provider``, of other explicit providers, up to ``max_fallbacks``.
Checks run lazily, cheapest first, so a large registry costs one pass of dictionary look-ups
plus schema validation of the few routes that end up in the chain.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..registry import BindingState, FieldMatch, Registry, Route
from .models import CallScope, FieldEvidence, Plan, PlanRequest, Rejection, ToolCall
from .need import need_from_fields, need_from_query

CooldownView = Callable[[str], float | None]
"""Seconds of cooldown left for an access path, or ``None`` when it is available."""


@dataclass(slots=True)
class _Candidate:
    route: Route
    evidence: dict[str, FieldMatch]
    key: tuple[int, int, float, str, str]

    @property
    def provider(self) -> str | None:
        return self.route.tool.explicit_provider


def compile_plan(
    request: PlanRequest,
    registry: Registry,
    cooldown_left: CooldownView,
    *,
    executable_only: bool = False,
) -> Plan:
    """Compile *request* against *registry* without I/O. Same inputs, same plan."""
    index = registry.index
    need = (
        need_from_fields(request.fields, index)
        if request.fields is not None
        else need_from_query(request.query, index)
    )
    rejected: list[Rejection] = []
    candidates = _candidates(request, registry, need, rejected)

    def check(candidate: _Candidate, *, heads_chain: bool) -> str | None:
        return _first_problem(candidate, request, registry, cooldown_left, executable_only, heads_chain)

    primary: _Candidate | None = None
    remaining: list[_Candidate] = []
    for position, candidate in enumerate(candidates):
        problem = check(candidate, heads_chain=True)
        if problem is None:
            primary = candidate
            remaining = candidates[position + 1 :]
            break
        rejected.append(_reject(candidate.route, problem))

    fallbacks: list[tuple[_Candidate, CallScope]] = []
    if primary is not None:
        fallbacks = _compile_fallbacks(primary, remaining, request, check, rejected)

    chain: list[tuple[_Candidate, CallScope]] = [(primary, "primary")] if primary else []
    chain.extend(fallbacks)
    calls = tuple(_tool_call(c, need, request, scope, _explain(c, scope, request)) for c, scope in chain)
    return Plan.model_construct(
        request=request,
        need=need,
        primary=calls[0] if calls else None,
        fallbacks=calls[1:],
        rejected=tuple(rejected),
        executable_only=executable_only,
    )


def _candidates(
    request: PlanRequest, registry: Registry, need: tuple[str, ...], rejected: list[Rejection]
) -> list[_Candidate]:
    preferred = {name: rank for rank, name in enumerate(request.preferred_tools)}
    unranked = len(preferred)
    out: list[_Candidate] = []
    for route in registry.routes():
        evidence: dict[str, FieldMatch] = {}
        missing: list[str] = []
        for sid in need:
            match = route.serving(sid)
            if match is None:
                missing.append(sid)
            else:
                evidence[sid] = match
        if missing:
            rejected.append(
                _reject(
                    route,
                    f"exposes no field for {', '.join(map(repr, missing))} "
                    "(no matching semantic id, name or alias)",
                )
            )
            continue
        score = sum(1 if m.kind == "alias" else 2 for m in evidence.values())
        score += 1 if route.endpoint.projection is not None else 0
        key = (
            preferred.get(route.tool.name, unranked),
            -score,
            route.endpoint.cost_units,
            route.tool.name,
            route.endpoint.name,
        )
        out.append(_Candidate(route, evidence, key))
    out.sort(key=lambda c: c.key)
    return out


def _first_problem(
    candidate: _Candidate,
    request: PlanRequest,
    registry: Registry,
    cooldown_left: CooldownView,
    executable_only: bool,
    heads_chain: bool,
) -> str | None:
    route = candidate.route
    read_only = route.endpoint.read_only
    automatic = request.fallback_scope != "disabled"
    explicitly_chosen = route.tool.name in request.preferred_tools
    if read_only is not True and (automatic or not (heads_chain and explicitly_chosen)):
        label = "mutating (read_only=False)" if read_only is False else "unclassified (read_only unset)"
        rule = (
            "every call of an automatic fallback chain must be read_only=True"
            if automatic
            else "only read_only=True routes are chosen unless named in preferred_tools"
        )
        return f"{label}: {rule}"
    left = cooldown_left(route.path)
    if left is not None:
        return f"unavailable: in cooldown for another {left:.1f}s"
    if executable_only:
        state: BindingState = registry.binding_state(route.tool.name)
        if state != "ready":
            return f"binding is {state}: bind an invoker to the current contract to use it"
    return _argument_problem(route, request.arguments)


def _argument_problem(route: Route, arguments: dict[str, Any]) -> str | None:
    accepted = route.endpoint.argument_names
    dropped = sorted(set(arguments) - accepted)
    if dropped:
        return f"does not accept argument(s) {dropped}; dropping them would answer another question"
    errors = list(route.argument_validator().iter_errors(arguments))
    if errors:
        first = errors[0]
        where = "/".join(str(p) for p in first.absolute_path) or "arguments"
        return f"arguments do not fit its input schema ({where}: {first.message})"
    return None


def _compile_fallbacks(
    primary: _Candidate,
    remaining: Sequence[_Candidate],
    request: PlanRequest,
    check: Callable[..., str | None],
    rejected: list[Rejection],
) -> list[tuple[_Candidate, CallScope]]:
    scope = request.fallback_scope
    if scope == "disabled":
        why = f"fallback is disabled; {primary.route.path} is the primary"
        rejected.extend(_reject(c.route, why) for c in remaining)
        return []
    provider = primary.provider
    if provider is None:
        why = f"primary {primary.route.tool.name!r} has no explicit provider, so no fallback is compiled"
        rejected.extend(_reject(c.route, why) for c in remaining)
        return []
    same = [c for c in remaining if c.provider == provider]
    others = [c for c in remaining if c.provider != provider]
    ordered: list[tuple[_Candidate, CallScope | None]] = [(c, "same_provider") for c in same]
    for candidate in others:
        if scope == "cross_provider" and candidate.provider is not None:
            ordered.append((candidate, "cross_provider"))
        else:
            ordered.append((candidate, None))
    chosen: list[tuple[_Candidate, CallScope]] = []
    for candidate, call_scope in ordered:
        if call_scope is None:
            why = (
                "has no explicit provider; cross-provider fallback needs one"
                if candidate.provider is None
                else f"provider {candidate.provider!r} differs from {provider!r} (scope same_provider)"
            )
            rejected.append(_reject(candidate.route, why))
            continue
        if len(chosen) >= request.max_fallbacks:
            rejected.append(
                _reject(candidate.route, f"chain is full (max_fallbacks={request.max_fallbacks})")
            )
            continue
        problem = check(candidate, heads_chain=False)
        if problem is None:
            chosen.append((candidate, call_scope))
        else:
            rejected.append(_reject(candidate.route, problem))
    return chosen


def _tool_call(
    candidate: _Candidate,
    need: tuple[str, ...],
    request: PlanRequest,
    scope: CallScope,
    explanation: str,
) -> ToolCall:
    route = candidate.route
    endpoint = route.endpoint
    if need:
        selected = tuple(dict.fromkeys(candidate.evidence[sid].field.name for sid in need))
        projection = endpoint.projection.parameters_for(selected) if endpoint.projection else {}
    else:
        selected = tuple(f.name for f in endpoint.fields)
        projection = {}
    return ToolCall(
        tool=route.tool.name,
        endpoint=endpoint.name,
        provider=route.tool.provider,
        access_mode=route.tool.access_mode,
        tool_fingerprint=route.tool.fingerprint,
        endpoint_fingerprint=endpoint.fingerprint,
        arguments=dict(request.arguments),
        selected_fields=selected,
        server_projection=projection,
        scope=scope,
        read_only=endpoint.read_only,
        evidence={
            sid: FieldEvidence(field=m.field.name, matched=m.matched, match_kind=m.kind)
            for sid, m in candidate.evidence.items()
        },
        explanation=explanation,
    )


def _explain(candidate: _Candidate, scope: CallScope, request: PlanRequest) -> str:
    route = candidate.route
    served = (
        ", ".join(
            f"{sid} via {m.field.name}" + (f" (alias {m.matched!r})" if m.kind == "alias" else "")
            for sid, m in candidate.evidence.items()
        )
        or "no specific field needed"
    )
    if scope == "primary":
        why = "preferred tool" if route.tool.name in request.preferred_tools else "best score"
    elif scope == "same_provider":
        why = f"same-provider fallback ({candidate.provider})"
    else:
        why = f"cross-provider fallback ({candidate.provider})"
    return f"{why}; serves {served}; read_only={route.endpoint.read_only}"


def _reject(route: Route, reason: str) -> Rejection:
    return Rejection.model_construct(tool=route.tool.name, endpoint=route.endpoint.name, reason=reason)
