"""Framework-neutral helpers shared by the LangChain and LlamaIndex packages.

Everything here depends only on the core package and pydantic, never on a framework:

* :class:`ToolOptions` - the application's settings (scope, budget, preferred tools, fields)
  and :meth:`ToolOptions.request`, which turns the model's ``query`` and arguments into a
  :class:`PlanRequest`. The model never sees or sets these options.
* :func:`canonical_arguments` / :func:`arguments_model` / :class:`ModelArguments` - the
  model-facing arguments: ``query`` plus every canonical argument accepted by a read-only
  endpoint, typed from its JSON Schema.
* :func:`describe_tool` - a few lines telling the model what the router can answer.
* :class:`ToolSurface` - description and arguments, rebuilt when ``registry.version`` changes.
* :func:`result_content` - compact text for the model from a :class:`ToolResult`.
* :func:`model_error_message` - the message a model can act on for routing errors, ``None``
  for errors that must propagate (programming and configuration errors).
* :func:`trace_payload` - an event's JSON payload for traces, without the bulky result;
  :func:`event_from_json` - the typed event back from its JSON payload.
"""

from __future__ import annotations

import functools
import json
import keyword
import operator
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from .errors import (
    AllRoutesUnavailableError,
    BudgetExceededError,
    InvokerCrashedError,
    NonRetryableInvocationError,
    NoRouteError,
    SchemaValidationError,
)
from .execution import EVENT_TYPES, RouterEvent, RunBudget, ToolResult
from .execution.events import ToolFallbackEvent
from .planning import PlanRequest
from .planning.models import FallbackScope
from .registry import Registry, Route
from .router import SchemaRouter

__all__ = [
    "MODEL_ERRORS",
    "MODEL_FIXABLE_STATUSES",
    "RESERVED_ARGUMENTS",
    "CanonicalArgument",
    "ModelArguments",
    "ToolOptions",
    "ToolSurface",
    "arguments_model",
    "canonical_arguments",
    "describe_tool",
    "event_from_json",
    "model_error_message",
    "model_routes",
    "python_type",
    "result_content",
    "trace_payload",
]

RESERVED_ARGUMENTS = frozenset({"query", "run_manager", "callbacks", "config"})
"""Argument names never exposed to the model: ``query`` is the question itself, the others
collide with framework keywords."""

MODEL_ERRORS: tuple[type[Exception], ...] = (
    NoRouteError,
    AllRoutesUnavailableError,
    BudgetExceededError,
    SchemaValidationError,
    NonRetryableInvocationError,
)
"""Router errors the model can act on; every other error propagates to the application.

A ``NonRetryableInvocationError`` reaches the model only with a status in
:data:`MODEL_FIXABLE_STATUSES` (a request the model can change: unknown id, bad value);
authentication failures, malformed responses and invoker bugs (``InvokerCrashedError``) are
the application's to handle.

``InvokerCrashedError`` (an invoker's bug) is a ``NonRetryableInvocationError`` but is never
shown to the model: :func:`model_error_message` returns ``None`` for it."""

MODEL_FIXABLE_STATUSES = frozenset({400, 404, 409, 410, 422})
"""HTTP statuses of refusals that another request from the model can avoid."""

QUERY_DESCRIPTION = (
    "The data question in plain words, naming the property you need (for example 'band gap of Si')."
)

_IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
_SCALARS: dict[str, Any] = {
    "string": str,
    "integer": int,
    "number": float,
    "boolean": bool,
    "null": type(None),
}
_CONSTRAINTS = {
    "minimum": "ge",
    "maximum": "le",
    "exclusiveMinimum": "gt",
    "exclusiveMaximum": "lt",
    "multipleOf": "multiple_of",
    "minLength": "min_length",
    "maxLength": "max_length",
    "minItems": "min_length",
    "maxItems": "max_length",
}
"""JSON Schema keywords carried into the pydantic type (they survive LangChain's subset models)."""


# -- application settings -----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ToolOptions:
    """The application's routing settings for a framework tool; invisible to the model."""

    fallback_scope: FallbackScope = "disabled"
    max_fallbacks: int = 3
    preferred_tools: tuple[str, ...] = ()
    budget: RunBudget | None = None
    fields: tuple[str, ...] | None = None

    def request(self, query: str, arguments: Mapping[str, Any] | None = None) -> PlanRequest:
        """The plan request for the model's *query* and canonical *arguments*.

        ``None`` values are dropped (an optional argument the model left out).
        """
        given = {k: v for k, v in (arguments or {}).items() if v is not None}
        return PlanRequest(
            query=query,
            arguments=given,
            preferred_tools=self.preferred_tools,
            fields=self.fields,
            fallback_scope=self.fallback_scope,
            max_fallbacks=self.max_fallbacks,
        )


# -- model-facing arguments ---------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CanonicalArgument:
    """One canonical argument as the model sees it.

    ``name`` is the canonical (wire-level) argument name; ``python_name`` the field name in
    the generated pydantic model (equal to ``name`` unless ``name`` is not a safe identifier);
    ``json_schema`` the merged schema of every endpoint that accepts it; ``accepted_by`` the
    access paths that accept it; ``universal`` whether every model-facing route accepts it.
    """

    name: str
    python_name: str
    json_schema: dict[str, Any]
    description: str
    accepted_by: tuple[str, ...]
    universal: bool


def model_routes(router: SchemaRouter | Registry) -> list[Route]:
    """The routes whose arguments and fields are shown to the model: read_only=True, by path."""
    registry = _registry(router)
    return sorted((r for r in registry.routes() if r.endpoint.read_only is True), key=lambda r: r.path)


def canonical_arguments(router: SchemaRouter | Registry) -> list[CanonicalArgument]:
    """The union of the input-schema properties of read-only endpoints, sorted by name.

    Names in :data:`RESERVED_ARGUMENTS` are left out. When endpoints disagree on an
    argument's schema, the model sees ``anyOf`` of the distinct schemas.
    """
    routes = model_routes(router)
    schemas: dict[str, list[dict[str, Any]]] = {}
    accepted: dict[str, list[str]] = {}
    for route in routes:
        properties = route.endpoint.input_schema.get("properties")
        if not isinstance(properties, dict):
            continue
        for name, schema in properties.items():
            if not isinstance(name, str) or not name or name in RESERVED_ARGUMENTS:
                continue
            schemas.setdefault(name, []).append(schema if isinstance(schema, dict) else {})
            accepted.setdefault(name, []).append(route.path)
    taken: set[str] = {"query"}
    out: list[CanonicalArgument] = []
    for name in sorted(schemas):
        merged = _merge_schemas(schemas[name])
        description = _argument_description(schemas[name], len(accepted[name]), len(routes))
        python_name = _python_name(name, taken)
        taken.add(python_name)
        out.append(
            CanonicalArgument(
                name=name,
                python_name=python_name,
                json_schema=merged,
                description=description,
                accepted_by=tuple(accepted[name]),
                universal=len(accepted[name]) == len(routes),
            )
        )
    return out


@dataclass(frozen=True, slots=True)
class ModelArguments:
    """The model-facing argument schema: a pydantic model and how to read it back."""

    model: type[BaseModel]
    arguments: tuple[CanonicalArgument, ...]

    def json_schema(self) -> dict[str, Any]:
        return self.model.model_json_schema()

    def to_canonical(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Map validated model values (python or canonical names) to canonical arguments.

        ``query`` and ``None`` values are dropped; unknown keys are kept as given.
        """
        by_python = {a.python_name: a.name for a in self.arguments}
        out: dict[str, Any] = {}
        for key, value in values.items():
            if key == "query" or value is None:
                continue
            out[by_python.get(key, key)] = value
        return out


def arguments_model(
    router: SchemaRouter | Registry,
    *,
    model_name: str = "SchemaRouterArguments",
    query_description: str = QUERY_DESCRIPTION,
) -> ModelArguments:
    """Build the pydantic model ``query: str`` + optional canonical arguments (default None).

    Extra keys are forbidden, so a model cannot smuggle in settings such as scope or budget.
    """
    arguments = tuple(canonical_arguments(router))
    definitions: dict[str, Any] = {"query": (str, Field(description=query_description))}
    for argument in arguments:
        renamed = argument.name != argument.python_name
        definitions[argument.python_name] = (
            python_type(argument.json_schema) | None,
            Field(
                default=None,
                description=argument.description
                + (f" Sent to the sources as `{argument.name}`." if renamed else ""),
                alias=argument.name if renamed else None,
            ),
        )
    model = create_model(
        model_name,
        __config__=ConfigDict(extra="forbid", populate_by_name=True),
        **definitions,
    )
    return ModelArguments(model=model, arguments=arguments)


def python_type(schema: Any) -> Any:
    """A Python annotation for a JSON Schema (best effort; ``Any`` when unsure).

    Numeric, length and item-count bounds become pydantic constraints, so the model sees
    them in the schema and a value out of bounds is rejected before any route runs.
    """
    if not isinstance(schema, dict):
        return Any
    base = _base_type(schema)
    constraints: dict[str, Any] = {
        _CONSTRAINTS[key]: value
        for key, value in schema.items()
        if key in _CONSTRAINTS and isinstance(value, int | float) and not isinstance(value, bool)
    }
    return Annotated[base, Field(**constraints)] if constraints and base is not Any else base


def _base_type(schema: dict[str, Any]) -> Any:
    if "const" in schema and _is_scalar(schema["const"]):
        return Literal[schema["const"]]
    enum = schema.get("enum")
    if isinstance(enum, list) and enum and all(_is_scalar(v) for v in enum):
        return Literal[tuple(dict.fromkeys(enum))]
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        if isinstance(options, list) and options:
            return _union(python_type(option) for option in options)
    kind = schema.get("type")
    if isinstance(kind, list) and kind:
        return _union(python_type({**schema, "type": k}) for k in kind)
    if kind == "array":
        return list[python_type(schema.get("items", {}))]  # type: ignore[misc]
    if kind == "object":
        return dict[str, Any]
    if isinstance(kind, str) and kind in _SCALARS:
        return _SCALARS[kind]
    return Any


# -- description --------------------------------------------------------------------------
def describe_tool(
    router: SchemaRouter | Registry,
    *,
    max_fields: int = 24,
    max_aliases: int = 3,
    intro: str | None = None,
) -> str:
    """A few lines for the model: what the router can answer, from which providers, how to ask."""
    routes = model_routes(router)
    fields: dict[str, list[str]] = {}
    for route in routes:
        for spec in route.endpoint.fields:
            aliases = fields.setdefault(spec.name, [])
            for alias in spec.aliases:
                if alias not in aliases and alias != spec.name:
                    aliases.append(alias)
    providers = sorted({r.tool.explicit_provider or r.tool.name for r in routes})
    lines = [
        intro
        or "Looks up records from registered data sources and returns them with the source that answered."
    ]
    if fields:
        shown = []
        for name in sorted(fields)[:max_fields]:
            aliases = fields[name][:max_aliases]
            shown.append(f"{name} (aka {', '.join(aliases)})" if aliases else name)
        more = len(fields) - max_fields
        lines.append(
            "Fields it can answer: " + "; ".join(shown) + (f"; and {more} more." if more > 0 else ".")
        )
    else:
        lines.append("No data source is registered yet.")
    if providers:
        lines.append("Providers: " + ", ".join(providers) + ".")
    lines.append(
        "Put the question in `query`, naming the property you need; add optional arguments "
        "(such as a formula) only to narrow the search."
    )
    return "\n".join(lines)


class ToolSurface:
    """What the model sees of a router - description and arguments - per registry version.

    ``refresh()`` rebuilds both when ``registry.version`` changed and returns True then.
    A fixed *description* given by the application is kept as is.
    """

    def __init__(
        self,
        router: SchemaRouter | Registry,
        *,
        model_name: str = "SchemaRouterArguments",
        description: str | None = None,
    ) -> None:
        self._registry = _registry(router)
        self._model_name = model_name
        self._fixed_description = description
        self._version: int | None = None
        self.description = ""
        self.arguments = ModelArguments(model=BaseModel, arguments=())
        self.refresh()

    @property
    def version(self) -> int | None:
        """The registry version the surface was built from."""
        return self._version

    def refresh(self) -> bool:
        version = self._registry.version
        if version == self._version:
            return False
        self.arguments = arguments_model(self._registry, model_name=self._model_name)
        self.description = self._fixed_description or describe_tool(self._registry)
        self._version = version
        return True


# -- results, errors, traces --------------------------------------------------------------
def result_content(result: ToolResult, *, max_records: int = 20, max_chars: int = 4000) -> str:
    """Compact text for the model: the records, the route that answered, fallbacks taken."""
    provider = ", ".join(x for x in (result.provider, result.access_mode) if x)
    lines = [f"Answered by {result.access_path}" + (f" ({provider})." if provider else ".")]
    fallbacks = [e for e in result.events if isinstance(e, ToolFallbackEvent)]
    if fallbacks:
        steps = "; ".join(
            f"{e.from_tool}.{e.from_endpoint} -> {e.to_tool}.{e.to_endpoint} ({e.reason})" for e in fallbacks
        )
        lines.append(f"Fallbacks taken: {len(fallbacks)} ({steps}).")
    records = result.records
    if not records:
        lines.append("No records matched.")
        return "\n".join(lines)
    lines.append(f"Records ({len(records)}):")
    used = sum(len(line) + 1 for line in lines)
    shown = 0
    for record in records[:max_records]:
        line = json.dumps(record, ensure_ascii=False, sort_keys=True, default=str)
        if shown and used + len(line) + 1 > max_chars:
            break
        lines.append(line)
        used += len(line) + 1
        shown += 1
    if shown < len(records):
        lines.append(f"... {len(records) - shown} more record(s) not shown.")
    return "\n".join(lines)


def model_error_message(exc: BaseException, *, max_chars: int = 800) -> str | None:
    """A message the model can act on for the errors in :data:`MODEL_ERRORS`, else ``None``.

    The text names access paths and reasons only: no stack trace, no header or credential.
    """
    if isinstance(exc, AllRoutesUnavailableError):
        tried = list(dict.fromkeys(a.access_path for a in exc.attempts))
        text = (
            "Every data source that could answer was unavailable"
            + (f" (tried: {', '.join(tried)})" if tried else "")
            + ". Try again later or answer without this data."
        )
    elif isinstance(exc, NoRouteError):
        hint = "Name a supported property in `query`, and drop or fix arguments the sources reject."
        if exc.cooling_down:
            wait = exc.reopens_in_seconds
            reopen = f" (the first reopens in about {wait:.0f}s)" if wait is not None else ""
            hint = f"Sources in cooldown are temporarily unavailable{reopen}: retry later. " + hint
        text = f"No data source can answer this request right now: {exc}. {hint}"
    elif isinstance(exc, BudgetExceededError):
        text = f"The lookup stopped because its budget is used up ({exc}). Do not retry it."
    elif isinstance(exc, SchemaValidationError):
        details = "; ".join(exc.errors) if exc.errors else str(exc)
        advice = (
            "The data source answered outside its declared schema, so retrying will not help; "
            "answer without this data."
            if exc.subject == "response"
            else "Fix the arguments and retry."
        )
        text = f"The request was rejected by a schema check: {details}. {advice}"
    elif (
        isinstance(exc, NonRetryableInvocationError)
        and not isinstance(exc, InvokerCrashedError)
        and exc.status_code in MODEL_FIXABLE_STATUSES
    ):
        text = (
            f"The data source refused the request (HTTP {exc.status_code}): {exc}. "
            "Check the arguments (for example an identifier that does not exist); "
            "retrying unchanged will fail again."
        )
    else:
        return None
    return text if len(text) <= max_chars else text[: max_chars - 3] + "..."


def event_from_json(data: Any) -> RouterEvent | None:
    """Rebuild a typed router event from its ``model_dump(mode="json")``; None if not one.

    A ``run.end`` result comes back as a :class:`ToolResult` with typed events; when the
    result cannot be rebuilt (another package version), the event keeps ``result=None``.
    """
    if not isinstance(data, Mapping):
        return None
    cls = EVENT_TYPES.get(str(data.get("type")))
    if cls is None:
        return None
    payload = dict(data)
    result = payload.get("result")
    if isinstance(result, Mapping) and isinstance(result.get("events"), list):
        inner = [event_from_json(item) for item in result["events"]]
        payload["result"] = {**result, "events": [e for e in inner if e is not None]}
    try:
        return cls.model_validate(payload)
    except ValidationError:
        if "result" not in payload:
            return None
    try:
        return cls.model_validate({**payload, "result": None})
    except ValidationError:
        return None


def trace_payload(event: RouterEvent) -> dict[str, Any]:
    """The event as JSON for traces; ``run.end`` carries a result summary, not the records."""
    data = event.model_dump(mode="json", exclude={"result"})
    result = getattr(event, "result", None)
    if isinstance(result, ToolResult):
        data["result"] = {
            "access_path": result.access_path,
            "provider": result.provider,
            "access_mode": result.access_mode,
            "records": len(result.records),
            "route": list(result.route),
            "fallbacks": result.fallbacks,
        }
    return data


# -- internals ----------------------------------------------------------------------------
def _registry(router: SchemaRouter | Registry) -> Registry:
    return router.registry if isinstance(router, SchemaRouter) else router


def _is_scalar(value: Any) -> bool:
    return isinstance(value, str | int | float | bool) or value is None


def _union(types: Iterable[Any]) -> Any:
    distinct = list(dict.fromkeys(types))
    if Any in distinct:
        return Any
    return functools.reduce(operator.or_, distinct)


def _merge_schemas(schemas: Sequence[dict[str, Any]]) -> dict[str, Any]:
    distinct: list[dict[str, Any]] = []
    seen: set[str] = set()
    for schema in schemas:
        bare = {k: v for k, v in schema.items() if k not in ("description", "title")}
        key = json.dumps(bare, sort_keys=True, default=str)
        if key not in seen:
            seen.add(key)
            distinct.append(bare)
    return distinct[0] if len(distinct) == 1 else {"anyOf": distinct}


def _argument_description(schemas: Sequence[dict[str, Any]], accepted: int, routes: int) -> str:
    described = next(
        (s["description"] for s in schemas if isinstance(s.get("description"), str) and s["description"]),
        "",
    )
    text = (
        described.strip().rstrip(".") + "."
        if described.strip()
        else "Optional argument for the data sources."
    )
    if accepted < routes:
        text += " Only some sources accept it: leave it out unless you need it."
    return text


_BASEMODEL_NAMES = frozenset(dir(BaseModel))


def _python_name(name: str, taken: set[str]) -> str:
    """A safe pydantic field name for *name*: itself when possible, else a close variant."""

    def usable(candidate: str) -> bool:
        return bool(
            _IDENTIFIER.match(candidate)
            and not keyword.iskeyword(candidate)
            and candidate not in _BASEMODEL_NAMES
            and not candidate.startswith("model_")
            and candidate not in taken
        )

    if usable(name):
        return name
    base = re.sub(r"\W+", "_", name).strip("_") or "arg"
    base = base if base[0].isalpha() else f"arg_{base}"
    candidates = [base, f"{base}_", *(f"{base}_{n}" for n in range(2, 1000))]
    return next(c for c in candidates if usable(c))
