"""Checking a whole chain before its primary runs.

Every check answers with a typed value: a :class:`Step` that may run, or a :class:`Skip`
saying why a route will not. The primary's problems raise (nothing has been invoked); an
optional fallback's problems prune it from the chain.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .._availability import Availability
from .._contracts import EndpointSpec, ToolSpec
from .._contracts.schemas import compiled_validator, validation_errors
from .._planning import Plan, ToolCall, arguments_known_valid
from .._planning.explaining import group_line, group_rejections
from .._registry import Registry
from .._registry.words import meeting_forms
from .._text import normalise
from ..errors import NoRouteError, PolicyViolationError, SchemaValidationError, StaleFingerprintError


@dataclass(frozen=True, slots=True)
class Skip:
    """A route that will not run, and why; ``unavailable`` when its origin cools down (the
    route is unavailable, not unbound)."""

    reason: str
    unavailable: bool = False


@dataclass(frozen=True, slots=True)
class Step:
    """A call of the chain that passed preflight, with the contract it was checked against."""

    call: ToolCall
    spec: ToolSpec
    endpoint: EndpointSpec


@dataclass(frozen=True, slots=True)
class Pruned:
    """An optional fallback left out before the primary ran, and why."""

    call: ToolCall
    reason: str


class _ArgumentCheck:
    """Validates arguments once per distinct (input schema, arguments) pair of a chain.

    Arguments the planner already found valid for the same endpoint content (fingerprint)
    and the same canonical JSON are not validated again. Other pairs are compared by
    ``repr``, which tells ``1``, ``1.0`` and ``True`` apart (``==`` does not, JSON Schema
    does); a different key order only costs another validation.
    """

    def __init__(self) -> None:
        self._seen: dict[tuple[str, str], list[str]] = {}

    def errors(self, call: ToolCall, endpoint: EndpointSpec) -> list[str]:
        if arguments_known_valid(endpoint.fingerprint, call.arguments_key):
            return []
        key = (repr(endpoint.input_schema), repr(call.arguments))
        errors = self._seen.get(key)
        if errors is None:
            validator = compiled_validator(endpoint.input_schema, key=f"in:{call.endpoint_fingerprint}")
            errors = self._seen[key] = validation_errors(validator, call.arguments)
        return errors


def is_bound(call: ToolCall, registry: Registry) -> bool:
    """True when an invoker is bound to the contract *call* was compiled against."""
    binding = registry.binding(call.tool)
    return binding is not None and binding.fingerprint == call.tool_fingerprint


def resolve(call: ToolCall, registry: Registry) -> Step | Skip:
    """The registered contract *call* was compiled against, or why it no longer matches."""
    spec = registry.tool(call.tool)
    if spec is None:
        return Skip(f"tool {call.tool!r} is no longer registered")
    endpoint = spec.endpoint(call.endpoint)
    if endpoint is None:
        return Skip(f"endpoint {call.access_path} no longer exists")
    if spec.fingerprint != call.tool_fingerprint or endpoint.fingerprint != call.endpoint_fingerprint:
        return Skip(f"the contract of {call.tool!r} changed after the plan was compiled")
    return Step(call, spec, endpoint)


NOTHING_MATCHES = "no field, endpoint name, description or keyword matches"
ERROR_GROUPS = 5
"""Groups of rejections a ``NoRouteError`` message names (closest to an answer first)."""


def no_route_error(plan: Plan, availability: Availability, registry: Registry | None = None) -> NoRouteError:
    """The error of a plan without primary: which routes cool down, and why others were left out.

    When the query named nothing any route has (an empty need and unmatched words), the
    message says so first, with the fields the routes taking the arguments can answer; when
    it named a field but other words match nothing, the message names those words too. The
    other routes are named by reason, grouped, closest to an answer first (a route that
    serves the need but refuses the arguments before one that exposes no field for it), as
    ``Plan.rejected`` orders them.
    """
    cooling = {}
    for rejection in plan.rejected:
        left = availability.cooldown_left(rejection.access_path)
        if left is not None:
            cooling[rejection.access_path] = left
    reopens = min(cooling.values()) if cooling else None
    message = f"no eligible route for {plan.request.query!r}"
    if plan.need and plan.unmatched:  # a field was read, but other words name nothing at all
        named = ", ".join(map(repr, plan.unmatched_phrases()))
        message += (
            f"; no data source exposes {named} (no field, endpoint name, description or keyword matches)"
        )
    phrases = plan.unmatched_phrases() if not plan.need else []
    answerable = answerable_fields(plan, registry, phrases) if phrases and registry is not None else []
    if phrases:
        named = ", ".join(map(repr, phrases))
        message = f"no data source exposes {named} ({NOTHING_MATCHES})"
        if answerable:
            message += f"; the sources can answer: {', '.join(answerable)}"
    if cooling:
        first = min(cooling, key=lambda p: (cooling[p], p))
        message += f"; in cooldown: {', '.join(sorted(cooling))}; {first} reopens in {reopens:.1f}s"
    others = [r for r in plan.rejected if r.access_path not in cooling]
    if others:
        groups = group_rejections(others)
        shown = "; ".join(group_line(reason, paths) for reason, paths in groups[:ERROR_GROUPS])
        rest = sum(len(paths) for _, paths in groups[ERROR_GROUPS:])
        more = f" (and {rest} more)" if rest else ""
        message += f"; other routes left out: {shown}{more}"
    elif not cooling:
        message += "; no tool is registered that could answer it"
    return NoRouteError(
        message,
        cooling_down=sorted(cooling),
        reopens_in_seconds=reopens,
        unmatched=phrases,
        answerable=answerable,
    )


def answerable_fields(
    plan: Plan, registry: Registry, phrases: Sequence[str] = (), *, limit: int = 30
) -> list[str]:
    """The field names of the routes that accept every argument of *plan*'s request, closest
    to the words asked (*phrases*, the unmatched ones) first, at most *limit*.

    Closeness, compared in this order: more words shared with the phrases (a word meets
    another as in field-word matching: same word, singular or derived base), a longer common
    prefix of a field word and a phrase word (4 letters or more), more character trigrams
    shared (Jaccard similarity of the padded texts); the name breaks ties alphabetically, so
    with nothing close the list is alphabetical.
    """
    given = set(plan.request.arguments)
    names = {
        f.name for route in registry.routes() if given <= route.argument_names for f in route.endpoint.fields
    }
    asked = [w for phrase in phrases for w in normalise(phrase).split()]
    forms = frozenset().union(*(meeting_forms(w) for w in asked)) if asked else frozenset()
    grams = _trigrams(" ".join(asked))
    return sorted(names, key=lambda name: (*_closeness(name, asked, forms, grams), name))[:limit]


def _closeness(
    name: str, asked: list[str], forms: frozenset[str], grams: frozenset[str]
) -> tuple[int, int, float]:
    """The sort key of a field *name* by closeness to the *asked* words (lower is closer)."""
    words = normalise(name).split()
    shared = sum(1 for w in words if meeting_forms(w) & forms)
    prefix = max((_common_prefix(w, a) for w in words for a in asked), default=0)
    own = _trigrams(" ".join(words))
    similarity = len(own & grams) / len(own | grams) if own and grams else 0.0
    return -shared, -(prefix if prefix >= 4 else 0), -round(similarity, 9)


def _common_prefix(a: str, b: str) -> int:
    size = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        size += 1
    return size


def _trigrams(text: str) -> frozenset[str]:
    padded = f"  {text} "
    return frozenset(padded[i : i + 3] for i in range(len(padded) - 2))


def preflight(plan: Plan, registry: Registry, availability: Availability) -> tuple[list[Step], list[Pruned]]:
    """The steps that may run, in order, and the optional fallbacks pruned from the chain.

    Raises ``NoRouteError`` for a plan without primary, ``PolicyViolationError`` when any
    call of an automatic chain is not read_only=True, ``StaleFingerprintError`` when the
    primary's contract or binding drifted and ``SchemaValidationError`` when the primary's
    arguments break its input schema; in each case nothing has been invoked. A fallback that
    drifted, is not bound to its current contract or has invalid arguments is pruned.
    """
    primary = plan.primary
    if primary is None:
        raise no_route_error(plan, availability, registry)
    if len(plan.calls) > 1:
        _check_read_only(plan.calls, registry)
    first = resolve(primary, registry)
    if isinstance(first, Skip):
        raise StaleFingerprintError(f"primary {primary.access_path}: {first.reason}; plan again")
    if not is_bound(primary, registry) and registry.binding_state(primary.tool) == "stale":
        raise StaleFingerprintError(
            f"primary {primary.access_path}: its invoker is bound to an older contract; bind it again"
        )
    check = _ArgumentCheck()
    errors = check.errors(primary, first.endpoint)
    if errors:
        raise SchemaValidationError(
            f"arguments for {primary.access_path} break its input schema: {'; '.join(errors)}",
            errors=errors,
        )
    steps = [first]
    pruned: list[Pruned] = []
    for call in plan.fallbacks:
        outcome = _fallback_step(call, registry, check)
        if isinstance(outcome, Skip):
            pruned.append(Pruned(call, outcome.reason))
        else:
            steps.append(outcome)
    return steps, pruned


def _check_read_only(calls: list[ToolCall], registry: Registry) -> None:
    for call in calls:
        spec = registry.tool(call.tool)
        endpoint = spec.endpoint(call.endpoint) if spec else None
        current = endpoint.read_only if endpoint else call.read_only
        if call.read_only is not True or current is not True:
            raise PolicyViolationError(
                f"{call.access_path} is not read_only=True; an automatic fallback chain "
                "may hold read-only calls only, so nothing was invoked"
            )


def _fallback_step(call: ToolCall, registry: Registry, check: _ArgumentCheck) -> Step | Skip:
    step = resolve(call, registry)
    if isinstance(step, Skip):
        return step
    if not is_bound(call, registry):
        return Skip(f"binding is {registry.binding_state(call.tool)}")
    errors = check.errors(call, step.endpoint)
    return Skip(f"arguments break its input schema: {'; '.join(errors)}") if errors else step
