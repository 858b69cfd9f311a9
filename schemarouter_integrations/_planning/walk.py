"""The planner's walk: each candidate in turn through the checks, cheapest first.

A candidate passes when it is read-only (or named in ``preferred_tools`` without an automatic
chain), not in cooldown, bound (for an executable plan), takes the request's arguments (every
one, fitting its input schema, and a filter expression's names among its fields:
``filter_names.py``), and mentions the asked words no source uses (``asked.py``). Verdicts on
arguments are remembered per route and arguments until the contracts change.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .._bounded import BoundedCache
from .._contracts.schemas import argument_problem, coerced_arguments
from .._registry import Registry, Route
from .asked import mentions, unasked_reason
from .cache import ARGUMENT_VERDICTS, PlanningCache
from .filter_names import filter_problem
from .models import PlanRequest
from .need import Need
from .ordering import Candidate
from .rejections import Rejections
from .shape import server_hints

CooldownView = Callable[[str], float | None]
"""Seconds of cooldown left for an access path, or ``None`` when it is available."""


class Walk:
    """State of one compilation: what was visited, chosen and rejected."""

    def __init__(
        self,
        request: PlanRequest,
        registry: Registry,
        cooldown_left: CooldownView,
        executable_only: bool,
    ) -> None:
        self.request = request
        self.registry = registry
        self.cache = registry.derived(PlanningCache)
        self.cooldown_left = cooldown_left
        self.executable_only = executable_only
        self.arguments_key = request.arguments_key
        self.visited: set[str] = set()
        self.rejected: Rejections = []
        self.asked: tuple[tuple[str, ...], ...] = ()
        """Asked words foreign to every source: a route must mention one (``asked.py``)."""
        self.loose: dict[Need, frozenset[tuple[str, str]]] = {}
        """Per need, its terms that narrow no route's answer (``breadth.loose_anywhere``)."""

    def first_passing(self, candidates: Iterable[Candidate], *, heads_chain: bool) -> Candidate | None:
        for candidate in candidates:
            if candidate.route.path in self.visited:
                continue
            self.visited.add(candidate.route.path)
            problem = self.problem(candidate.route, heads_chain=heads_chain)
            if problem is None:
                return candidate
            self.rejected.append((candidate.tool, candidate.route.endpoint.name, problem))
        return None

    def problem(self, route: Route, *, heads_chain: bool) -> str | None:
        request = self.request
        read_only = route.endpoint.read_only
        automatic = request.fallback_scope != "disabled"
        chosen = heads_chain and route.tool.name in request.preferred_tools
        if read_only is not True and (automatic or not chosen):
            label = "mutating (read_only=False)" if read_only is False else "unclassified (read_only unset)"
            label += server_hints(route.endpoint.description)
            rule = (
                "every call of an automatic fallback chain must be read_only=True"
                if automatic
                else "only read_only=True routes are chosen unless named in preferred_tools"
            )
            return f"{label}: {rule}"
        left = self.cooldown_left(route.path)
        if left is not None:
            return f"unavailable: in cooldown for another {left:.1f}s"
        if self.executable_only:
            state = self.registry.binding_state(route.tool.name)
            if state != "ready":
                return f"binding is {state}: bind an invoker to the current contract to use it"
        problem = self.argument_problem(route)
        if problem is None and self.asked and not mentions(route, self.asked):
            return unasked_reason(self.asked)
        return problem

    def argument_problem(self, route: Route) -> str | None:
        """Why *route* refuses the request's arguments (None: it takes them), remembered per
        route and arguments until the contracts change."""
        verdicts = ARGUMENT_VERDICTS.get(route.endpoint_fingerprint)
        if verdicts is None:
            verdicts = ARGUMENT_VERDICTS.put(route.endpoint_fingerprint, BoundedCache(256))
        key = self.arguments_key
        if key in verdicts:
            return verdicts[key]
        return verdicts.put(key, self._judge_arguments(route))

    def _judge_arguments(self, route: Route) -> str | None:
        arguments = coerced_arguments(route.endpoint.input_schema, self.request.arguments)
        dropped = sorted(set(arguments) - route.argument_names)
        if dropped:
            return f"does not accept argument(s) {dropped}; dropping them would answer another question"
        foreign = filter_problem(route, arguments)
        if foreign is not None:
            return foreign
        problem = argument_problem(route.argument_validator(), arguments)
        return f"arguments do not fit its input schema ({problem})" if problem else None
