"""Endpoint and tool contracts, fingerprinted."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Annotated, Any, Required, TypedDict

from pydantic import Field, ValidatorFunctionWrapHandler, field_validator, model_validator

from .base import NOT_GIVEN, FingerprintedContract, with_first
from .fields import FieldSpec, ServerProjectionSpec
from .interning import FrozenDict, FrozenList, interned_schema, shared_schema, shared_strings, shared_value
from .origins import origin_of
from .policies import RetryPolicy
from .schemas import check_schema
from .views import composed_fingerprint

if TYPE_CHECKING:
    from typing import Unpack


def _duplicates(names: list[str]) -> list[str]:
    return sorted(name for name, count in Counter(names).items() if count > 1)


def _check_result_paths(endpoint: str, fields: list[FieldSpec]) -> None:
    """Refuse two fields written at the same place of a result record, or one inside the other:
    projecting both would silently drop one value."""
    located = sorted((tuple(f.result_location), f.name) for f in fields)
    for (outer, first), (inner, second) in pairwise(located):
        if inner[: len(outer)] == outer:  # sorted: any clash shows between neighbours
            raise ValueError(
                f"fields {first!r} and {second!r} of endpoint {endpoint!r} would both be written at "
                f"result_path {'/'.join(outer)!r}; give them distinct, non-nested result paths"
            )


class EndpointSpecOptions(TypedDict, total=False):
    """The keyword arguments of :class:`EndpointSpec` after ``name``."""

    description: str
    input_schema: Mapping[str, Any]
    output_schema: Mapping[str, Any] | None
    fields: Sequence[FieldSpec]
    projection: ServerProjectionSpec | None
    read_only: bool | None
    retry: RetryPolicy
    cost_units: float
    records_path: Sequence[str] | None
    keywords: Sequence[str]
    deprecated: bool
    context: str


MAX_KEYWORDS = 64
MAX_KEYWORD_CHARS = 200


class EndpointSpec(FingerprintedContract):
    """One operation of a tool, ``EndpointSpec(name, ...)``: its arguments, its fields and how
    to read its records.

    ``read_only=None`` means unclassified: such an endpoint never joins an automatic
    fallback chain. ``input_schema`` is JSON Schema over canonical argument names;
    ``output_schema`` validates the raw response; ``records_path`` locates the list of
    records in the raw response (a lone object is one record). ``keywords`` (tags, path
    segments, the operationId) and ``description`` are the endpoint's own texts: planning ranks
    endpoints by how well a query's words match them. ``context`` is what its document says of
    it outside it (OpenAPI: its tags' descriptions): planning reads a word there only when the
    endpoint's own texts lack it. ``deprecated=True`` (OpenAPI's ``deprecated: true``) keeps
    the endpoint for questions no current one serves.
    """

    name: str = Field(min_length=1)
    description: str = ""
    input_schema: dict[str, Any] = Field(default_factory=dict)
    output_schema: dict[str, Any] | None = None
    fields: list[FieldSpec] = Field(default_factory=list)
    projection: ServerProjectionSpec | None = None
    read_only: bool | None = None
    retry: RetryPolicy = Field(default_factory=RetryPolicy)
    cost_units: float = Field(default=1.0, ge=0.0, allow_inf_nan=False)
    records_path: list[str] | None = None
    keywords: list[Annotated[str, Field(min_length=1, max_length=MAX_KEYWORD_CHARS)]] = Field(
        default_factory=list, max_length=MAX_KEYWORDS
    )
    deprecated: bool = False
    context: str = ""

    if TYPE_CHECKING:

        def __init__(self, name: str, **options: Unpack[EndpointSpecOptions]) -> None: ...

    else:

        def __init__(self, name: str = NOT_GIVEN, **options: Any) -> None:
            super().__init__(**with_first("name", name, options))

    @field_validator("input_schema", "output_schema", mode="wrap")
    @classmethod
    def _interned(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        """An interned schema (a copy of an endpoint's) is taken as it is: checked, read-only."""
        return value if interned_schema(value) else handler(value)

    @model_validator(mode="after")
    def _check(self) -> EndpointSpec:
        if type(self.keywords) is FrozenList:  # a built endpoint, passed whole to a tool
            return self
        duplicated = _duplicates([f.name for f in self.fields])
        if duplicated:
            raise ValueError(f"endpoint {self.name!r} declares field(s) twice: {duplicated}")
        _check_result_paths(self.name, self.fields)
        own = self.__dict__  # equal parts are shared between contracts (see .interning)
        key = check_schema(self.input_schema, what=f"input_schema of endpoint {self.name!r}")
        own["input_schema"] = shared_schema(self.input_schema, key)
        if self.output_schema is not None:
            key = check_schema(self.output_schema, what=f"output_schema of endpoint {self.name!r}")
            own["output_schema"] = shared_schema(self.output_schema, key)
        own["keywords"] = shared_strings(self.keywords)
        if self.records_path is not None:
            own["records_path"] = shared_strings(self.records_path)
        retry = self.retry
        own["retry"] = shared_value(retry, (type(retry), *((type(v), v) for v in retry.__dict__.values())))
        if self.projection is not None:
            known = {f.name for f in self.fields}
            unknown = sorted(set(self.projection.field_map) - known)
            if unknown:
                raise ValueError(f"projection.field_map of endpoint {self.name!r} names no field: {unknown}")
        return self

    @property
    def argument_names(self) -> frozenset[str]:
        if type(self.input_schema) is FrozenDict:  # computed once per interned schema
            return self.input_schema.argument_names()
        properties = self.input_schema.get("properties", {})
        return frozenset(properties) if isinstance(properties, dict) else frozenset()

    def field(self, name: str) -> FieldSpec | None:
        return next((f for f in self.fields if f.name == name), None)


class ToolSpecOptions(TypedDict, total=False):
    """The keyword arguments of :class:`ToolSpec` after ``name``."""

    provider: str | None
    access_mode: str | None
    description: str
    endpoints: Required[Sequence[EndpointSpec]]
    origin: str | None


class ToolSpec(FingerprintedContract):
    """One access path family, ``ToolSpec(name, ...)``: a named contract owned by ``provider``,
    reached via ``access_mode``.

    ``fingerprint`` is a sha256 over the canonical JSON of the whole contract, provider and
    access_mode included, so any change of the contract changes it.
    """

    name: str = Field(min_length=1)
    provider: str | None = None
    access_mode: str | None = None
    description: str = ""
    endpoints: list[EndpointSpec] = Field(min_length=1)
    origin: str | None = None
    """The service the tool talks to, ``scheme://host[:port]`` (any http(s) URL is reduced
    to its origin). Tools on one origin share its fate: see :mod:`.origins`."""

    if TYPE_CHECKING:

        def __init__(self, name: str, **options: Unpack[ToolSpecOptions]) -> None: ...

    else:

        def __init__(self, name: str = NOT_GIVEN, **options: Any) -> None:
            super().__init__(**with_first("name", name, options))

    @field_validator("origin")
    @classmethod
    def _origin(cls, value: str | None) -> str | None:
        if value is None:
            return None
        try:
            return origin_of(value)
        except ValueError:
            raise ValueError("origin must be an absolute http(s) URL (scheme://host[:port])") from None

    @model_validator(mode="after")
    def _check(self) -> ToolSpec:
        if "." in self.name:
            raise ValueError(f"tool name {self.name!r} must not contain '.' (paths are tool.endpoint)")
        duplicated = _duplicates([e.name for e in self.endpoints])
        if duplicated:
            raise ValueError(f"tool {self.name!r} declares endpoint(s) twice: {duplicated}")
        return self

    def _fingerprinted(self) -> str:
        """The tool's own fields around its endpoints' texts, each encoded once (see :mod:`.views`)."""
        own = {name: value for name, value in self.__dict__.items() if name != "endpoints"}
        return composed_fingerprint(own, "endpoints", [e.take_text() for e in self.endpoints])

    @property
    def explicit_provider(self) -> str | None:
        """The provider when it is explicit and non-empty, else ``None``."""
        return self.provider.strip() or None if self.provider else None

    def endpoint(self, name: str) -> EndpointSpec | None:
        for endpoint in self.endpoints:  # a plain loop: this runs for every call of every run
            if endpoint.name == name:
                return endpoint
        return None
