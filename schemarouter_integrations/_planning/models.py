"""Plans and their parts: calls, evidence and rejections (the request is in ``requests.py``;
``PlanRequest``, ``PlanRequestOptions`` and ``FallbackScope`` are re-exported here)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidatorFunctionWrapHandler,
    computed_field,
    field_validator,
    model_validator,
)

from .._contracts.base import Contract
from .._contracts.fingerprint import canonical_json
from .._registry.routes import RouteRef
from .explaining import EXPLAIN_GROUPS, group_line, group_rejections, unmatched_phrases
from .json_data import Arguments, json_arguments
from .requests import FallbackScope, PlanRequest, PlanRequestOptions

CallScope = Literal["primary", "same_provider", "cross_provider"]

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class FieldEvidence(BaseModel):
    """Why a field serves a semantic id: the field and the name or alias that matched."""

    model_config = _FROZEN

    field: str
    matched: str
    match_kind: Literal["semantic_id", "name", "alias"]


class ToolCall(Contract):
    """One compiled call: a route, its arguments, its field selection and why it was chosen."""

    tool: str
    endpoint: str
    provider: str | None
    access_mode: str | None
    tool_fingerprint: str
    endpoint_fingerprint: str
    arguments: Arguments
    selected_fields: list[str]
    server_projection: dict[str, str]
    scope: CallScope
    read_only: bool | None
    evidence: dict[str, FieldEvidence]
    explanation: str

    _check_arguments = field_validator("arguments")(json_arguments)

    @cached_property
    def access_path(self) -> str:
        """``"tool.endpoint"`` (computed once: runs read it at every step)."""
        return f"{self.tool}.{self.endpoint}"

    @cached_property
    def arguments_key(self) -> str:
        """The arguments as canonical JSON (computed once; the planner hands its request's over)."""
        return canonical_json(self.arguments)

    @cached_property
    def ref(self) -> RouteRef:
        """The route this call runs on, as route events name it."""
        return RouteRef(self.tool, self.endpoint, self.provider, self.access_mode)


class Rejection(BaseModel):
    """A candidate left out of the plan, with a reason a person can act on."""

    model_config = _FROZEN

    tool: str
    endpoint: str
    reason: str

    @property
    def access_path(self) -> str:
        return f"{self.tool}.{self.endpoint}"


class Plan(BaseModel):
    """A compiled, bounded route: a primary call, its fallbacks and every rejection.

    ``need``, ``missing``, ``unmatched``, ``fallbacks`` and ``rejected`` are lists; the plan
    is immutable, so they must not be changed in place (``calls`` is a new list on every
    read). ``rejected`` is materialised on first access, so planning over large registries
    does not pay for rejection objects nobody reads; it lists the reasons closest to an
    answer first (routes that serve the need but failed a check, then candidates the chain
    did not need, then routes that serve less of it). ``missing`` names the semantic ids of
    the need that the primary does not serve (a partial answer: no eligible route serves the
    whole need). ``unmatched`` names the words of the query that matched no field (argument
    names and values, stop words and words of the primary endpoint's own texts left out; see
    ``_planning/reading.py``).
    """

    model_config = _FROZEN

    request: PlanRequest
    need: list[str]
    missing: list[str] = Field(default_factory=list)
    unmatched: list[str] = Field(default_factory=list)
    primary: ToolCall | None
    fallbacks: list[ToolCall] = Field(default_factory=list)
    executable_only: bool = False
    warnings: list[str] = Field(default_factory=list)
    """What the request asked that the plan could not honour (a preferred tool that is not
    registered); ``explain()`` shows them."""
    _rejections: list[tuple[str, str, str]] = PrivateAttr(default_factory=list)
    _unreached: Callable[[], list[tuple[str, str, str]]] | None = PrivateAttr(default=None)
    _not_serving: Callable[[], list[tuple[str, str, str]]] | None = PrivateAttr(default=None)
    _count: Callable[[], int] | int | None = PrivateAttr(default=None)
    _reasons: Callable[[], list[str]] | list[str] = PrivateAttr(default_factory=list)

    @model_validator(mode="wrap")
    @classmethod
    def _accept_rejected(cls, data: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        raw = reasons = None
        if isinstance(data, dict) and ("rejected" in data or "reasons" in data):
            data = dict(data)
            raw = data.pop("rejected", None)
            reasons = data.pop("reasons", None)
        plan = handler(data)
        if reasons is not None:
            plan._reasons = [str(r) for r in reasons]
        if raw is not None:
            items = [r if isinstance(r, Rejection) else Rejection.model_validate(r) for r in raw]
            plan._rejections = [(r.tool, r.endpoint, r.reason) for r in items]
        return plan

    @classmethod
    def compiled(
        cls,
        *,
        rejections: list[tuple[str, str, str]],
        unreached: Callable[[], list[tuple[str, str, str]]] | None = None,
        not_serving: Callable[[], list[tuple[str, str, str]]] | None = None,
        count: Callable[[], int] | None = None,
        reasons: Callable[[], list[str]] | list[str] | None = None,
        **fields: Any,
    ) -> Plan:
        """Build a plan from trusted planner output without re-validating it.

        *not_serving* (the routes that do not serve the need, listed last) and
        *unreached* (candidates the planner never had to look at) are computed lazily, when
        ``rejected`` is first read; *count* says how many rejections there are without
        building them (see :meth:`rejected_count`); *reasons* too, when ``reasons`` is first
        read.
        """
        plan = cls.model_construct(**fields)
        private = plan.__pydantic_private__
        assert private is not None  # model_construct fills the private defaults
        private["_rejections"] = rejections  # one dict write each, not BaseModel.__setattr__
        private["_unreached"] = unreached
        private["_not_serving"] = not_serving
        private["_count"] = count
        private["_reasons"] = reasons if reasons is not None else []
        return plan

    @computed_field  # type: ignore[prop-decorator]
    @cached_property
    def reasons(self) -> list[str]:
        """Why the primary was chosen over the other candidates that serve the need, closest
        first, each naming its stage and rule (``rank/broad record: ...``, ``check/arguments:
        ...``; see ``_planning/rank.py``); ``explain()`` prints them first. Built on first
        read."""
        found = self._reasons
        return list(found()) if callable(found) else list(found)

    def rejected_count(self) -> int:
        """``len(plan.rejected)``, without building the rejections when nobody read them yet."""
        private = self.__pydantic_private__
        count = private["_count"] if private else None
        if count is None or "rejected" in self.__dict__:
            return len(self.rejected)
        if isinstance(count, int):
            return count
        result: int = count()
        private["_count"] = result  # type: ignore[index]  # counted once, like ``rejected``
        return result

    @computed_field  # type: ignore[prop-decorator]
    @cached_property
    def rejected(self) -> list[Rejection]:
        """One entry per candidate left out: ``tool``, ``endpoint``, ``reason``, closest to an
        answer first: routes that serve the need but failed a check (arguments, cooldown,
        policy, binding) in the order they were tried, then candidates the chain did not need,
        then the routes that do not serve the need (those lacking fewer of it first)."""
        build: Callable[..., Rejection] = Rejection.model_construct
        raw = list(self._rejections)
        if self._unreached is not None:
            raw.extend(self._unreached())
        if self._not_serving is not None:
            raw.extend(self._not_serving())
        return [build(tool=t, endpoint=e, reason=r) for t, e, r in raw]

    @property
    def calls(self) -> list[ToolCall]:
        """A new list: the primary followed by the fallbacks."""
        calls = [self.primary] if self.primary is not None else []
        calls.extend(self.fallbacks)
        return calls

    def unmatched_phrases(self) -> list[str]:
        """The unmatched words grouped as the query writes them: adjacent ones form one phrase
        ("melting point of Si" -> ["melting point"])."""
        return unmatched_phrases(self.request.query, self.unmatched)

    def explain(self, verbose: bool = False) -> str:
        """A readable account of the plan: why the primary was chosen (``reasons``), the need
        and what is missing of it, the chain, and the rejected candidates, closest to an
        answer first.

        By default the rejections are grouped by reason (``31 endpoints expose no field for
        'band_gap' ...``), at most :data:`EXPLAIN_GROUPS` groups; ``verbose=True`` lists every
        rejected candidate on its own line.
        """
        need = ", ".join(self.need) or "(no specific field)"
        lines = [f"why: {why}" for why in self.reasons]
        lines.extend((f"query: {self.request.query!r}", f"need: {need}"))
        if self.missing:
            lines.append(
                f"missing: {', '.join(self.missing)} (a partial answer: no eligible route serves the whole "
                "need, the primary serves the most of it)"
            )
        lines.append(f"fallback: {self.request.fallback_scope} (max {self.request.max_fallbacks})")
        lines.extend(f"warning: {warning}" for warning in self.warnings)
        if self.unmatched:
            words = ", ".join(map(repr, self.unmatched))
            lines.append(f"unmatched: {words} (no field of any route matches them)")
        if self.primary is None:
            lines.append("no eligible primary route")
        for index, call in enumerate(self.calls):
            label = "primary " if index == 0 else f"fallback {index}"
            lines.append(f"{label}: {call.access_path} [{call.scope}] {call.explanation}")
        rejected = self.rejected
        if rejected and verbose:
            lines.append("rejected:")
            lines.extend(f"  {r.access_path}: {r.reason}" for r in rejected)
        elif rejected:
            groups = group_rejections(rejected)
            grouped = len(groups) < len(rejected) or len(groups) > EXPLAIN_GROUPS
            lines.append(
                f"rejected ({len(rejected)}, grouped by reason; explain(verbose=True) lists each):"
                if grouped
                else "rejected:"
            )
            lines.extend(f"  {group_line(reason, paths)}" for reason, paths in groups[:EXPLAIN_GROUPS])
            if len(groups) > EXPLAIN_GROUPS:
                rest = sum(len(paths) for _, paths in groups[EXPLAIN_GROUPS:])
                lines.append(f"  ... {rest} more in {len(groups) - EXPLAIN_GROUPS} other groups")
        return "\n".join(lines)


__all__ = [
    "CallScope",
    "FallbackScope",
    "FieldEvidence",
    "Plan",
    "PlanRequest",
    "PlanRequestOptions",
    "Rejection",
    "ToolCall",
    "group_line",
    "group_rejections",
]
