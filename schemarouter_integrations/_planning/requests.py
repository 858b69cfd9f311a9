"""What the router accepts as a request: a :class:`PlanRequest` or a bare query string."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from pydantic import Field, JsonValue, field_validator

from .._contracts.base import NOT_GIVEN, Contract, with_first
from .._contracts.caching import CachePolicy
from .._contracts.fingerprint import canonical_json
from .._contracts.policies import HedgePolicy
from ..errors import PlanningError
from .json_data import MAX_QUERY_CHARS, Arguments, json_arguments, request_fields

if TYPE_CHECKING:
    from typing import Unpack

FallbackScope = Literal["disabled", "same_provider", "cross_provider"]

_set = object.__setattr__


class PlanRequestOptions(TypedDict, total=False):
    """The keyword arguments of :class:`PlanRequest` after ``query``."""

    arguments: Mapping[str, JsonValue]
    preferred_tools: Sequence[str]
    fields: Sequence[str] | None
    fallback_scope: FallbackScope
    max_fallbacks: int
    hedge: HedgePolicy | None
    cache: CachePolicy | None
    max_records: int


class PlanRequest(Contract):
    """What to answer and how far fallback may go: ``PlanRequest(query, ...)``.

    ``arguments`` must be JSON data (anything else is a ``ValidationError`` here, before
    any planning). ``fields`` (semantic ids, names or aliases) overrides the need read from
    ``query`` (at most :data:`MAX_QUERY_CHARS` characters: a longer question is an
    ``InvalidContractError``). Fallback is disabled unless ``fallback_scope`` says otherwise; ``hedge``
    (a :class:`HedgePolicy`) starts the next read-only call of the chain when the current
    one is slow; ``cache`` (a :class:`CachePolicy`) serves a recent answer again. Both
    change execution only, never the plan. ``max_records`` (default 200) bounds the records
    of an answer: a listing with more is cut there (``ToolResult.truncated``).
    """

    query: str
    arguments: Arguments = Field(default_factory=dict)
    preferred_tools: list[str] = Field(default_factory=list)
    fields: list[str] | None = None
    fallback_scope: FallbackScope = "disabled"
    max_fallbacks: int = Field(default=3, ge=0, le=8)
    hedge: HedgePolicy | None = None
    cache: CachePolicy | None = None
    max_records: int = Field(default=200, ge=1)

    if TYPE_CHECKING:

        def __init__(self, query: str, **options: Unpack[PlanRequestOptions]) -> None: ...

    else:

        def __init__(self, query: str = NOT_GIVEN, **options: Any) -> None:
            known = request_fields(query, options) if type(self) is PlanRequest else None
            if known is None:
                super().__init__(**with_first("query", query, options))
            else:  # plain values, valid by their types: what validation would give, without it
                _set(self, "__dict__", known[0])
                _set(self, "__pydantic_fields_set__", known[1])
                _set(self, "__pydantic_extra__", None)
                _set(self, "__pydantic_private__", None)

    _check_arguments = field_validator("arguments")(json_arguments)

    @field_validator("query")
    @classmethod
    def _short_enough(cls, query: str) -> str:
        if len(query) > MAX_QUERY_CHARS:
            raise ValueError(
                f"the question is {len(query):,} characters long; at most {MAX_QUERY_CHARS:,} are read: "
                "ask a shorter question and pass values as arguments"
            )
        return query

    @cached_property
    def arguments_key(self) -> str:
        """The arguments as canonical JSON: equal keys mean equal arguments (computed once)."""
        return canonical_json(self.arguments)


def as_request(request: PlanRequest | str) -> PlanRequest:
    """*request* as a :class:`PlanRequest` (a string is its query); anything else is a
    :class:`PlanningError`."""
    if isinstance(request, PlanRequest):
        return request
    if isinstance(request, str):
        return PlanRequest(query=request)
    raise PlanningError(f"expected a PlanRequest, a Plan or a query string, got {type(request).__name__}")
