"""Python callables as tools: the signature gives the input schema, the return type the fields.

Sync functions run in a worker thread (``anyio.to_thread.run_sync``) so they never block the
event loop. A function may raise ``InvocationUnavailableError`` itself to say it is
unavailable. The transport errors of the standard library and of the common HTTP clients
(requests, urllib3, httpx, aiohttp; see :mod:`._client_errors`), their 429/5xx status
errors and the application's ``unavailable_on`` types mean unavailable too; any other
exception ends the run (the executor wraps it as non-retryable), unless the function's
``origin`` is failing at that moment.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
import types
import typing
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Unpack

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model
from pydantic.errors import PydanticUserError
from pydantic.json_schema import PydanticJsonSchemaWarning

from .._bounded import BoundedCache
from .._contracts import EndpointSpec, FieldSpec, RetryPolicy, ToolSpec
from .._registry import Invoker
from ..errors import RegistrationError
from ._fields import coerce_fields, safe_name, short_description, with_identity_defaults
from ._options import CallableOptions, check_options
from ._python_call import callable_invoker

DEFAULT_TIMEOUT_SECONDS = 30.0
"""How long one call of a registered Python function may take by default."""
_SKIPPED_KINDS = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)


def build_callable_route(
    fn: Callable[..., Any],
    *,
    name: str,
    provider: str | None = None,
    access_mode: str | None = "python",
    endpoint: str | None = None,
    read_only: bool | None = None,
    fields: Any = None,
    origin: str | None = None,
    unavailable_on: Sequence[type[BaseException]] | type[BaseException] = (),
    **options: Unpack[CallableOptions],
) -> tuple[ToolSpec, Invoker]:
    """Build the ToolSpec and invoker for a sync or async function.

    ``read_only`` stays ``None`` (unclassified) unless given: say ``read_only=True`` for a
    function that may join automatic fallback chains. ``fields`` (FieldSpecs or names)
    override the fields read from the return annotation (pydantic model, TypedDict,
    dataclass, or a list of them). A field named ``id``, ending in ``_id`` or named like a
    parameter is an identity field unless its ``identity`` is given.

    ``timeout_seconds`` (default :data:`DEFAULT_TIMEOUT_SECONDS`; ``None``: no bound) bounds
    each call: a call that overruns is an ``InvocationUnavailableError``, like an HTTP
    timeout (retried, cooled down, fallen back from). A sync function runs in a worker
    thread; when the call times out or the run is cancelled the router returns at once and
    abandons the thread (it finishes in the background; its result is dropped).

    ``origin`` (a URL) names the service the function talks to: the function then shares
    that origin's fate with every route on it (skipped while it cools down; any exception
    it raises while the origin is failing is unavailable). ``unavailable_on`` adds exception
    types that mean unavailable for this function.
    """
    if not callable(fn):
        raise RegistrationError(f"add_callable() needs a callable, got {type(fn).__name__}")
    what = f"add_callable(name={name!r})"
    check_options(options, CallableOptions, what=what)
    endpoint_name = endpoint or safe_name(getattr(fn, "__name__", ""), fallback="call")
    hints = _type_hints(fn)
    parameters = _parameters(fn, what)
    model, schema = _arguments_model(endpoint_name, parameters, hints, what)
    if fields is not None:
        field_specs = tuple(coerce_fields(fields, what=what))
    else:
        field_specs = fields_from_annotation(hints.get("return"))
    field_specs = tuple(with_identity_defaults(field_specs, [p.name for p in parameters]))
    try:
        spec = ToolSpec(
            name=name,
            provider=provider,
            access_mode=access_mode,
            description=options.get("description") or short_description(inspect.getdoc(fn)),
            endpoints=[
                EndpointSpec(
                    name=endpoint_name,
                    description=options.get("description") or short_description(inspect.getdoc(fn)),
                    input_schema=schema,
                    output_schema=options.get("output_schema"),
                    fields=field_specs,
                    read_only=read_only,
                    retry=options.get("retry") or RetryPolicy(),
                    cost_units=options.get("cost_units", 1.0),
                    records_path=options.get("records_path"),
                )
            ],
            origin=origin,
        )
    except ValidationError as exc:
        raise RegistrationError(f"{what}: not a valid contract: {exc}") from exc
    timeout = _timeout(options.get("timeout_seconds", DEFAULT_TIMEOUT_SECONDS), what)
    return spec, callable_invoker(fn, parameters, model, timeout, _exception_types(unavailable_on, what))


def _exception_types(value: Any, what: str) -> tuple[type[BaseException], ...]:
    if isinstance(value, type):
        types_: tuple[Any, ...] = (value,)
    elif isinstance(value, list | tuple | set | frozenset):
        types_ = tuple(value)
    else:
        raise RegistrationError(f"{what}: unavailable_on= takes exception types, got {value!r}")
    for kind in types_:
        if not (isinstance(kind, type) and issubclass(kind, Exception)):
            raise RegistrationError(f"{what}: unavailable_on= takes exception types, got {kind!r}")
    return types_


def _timeout(value: Any, what: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < math.inf:
        raise RegistrationError(f"{what}: timeout_seconds must be a positive, finite number or None")
    return float(value)


def fields_from_annotation(annotation: Any) -> tuple[FieldSpec, ...]:
    """Fields of a return annotation: a model, TypedDict or dataclass, or a list of them."""
    record = _record_type(annotation)
    if record is None:
        return ()
    if isinstance(record, type) and issubclass(record, BaseModel):
        return tuple(
            FieldSpec(name=key, description=short_description(info.description))
            for key, info in record.model_fields.items()
        )
    if typing.is_typeddict(record):
        return tuple(FieldSpec(name=key) for key in _type_hints(record))
    if dataclasses.is_dataclass(record):
        return tuple(FieldSpec(name=f.name) for f in dataclasses.fields(record))
    return ()


def _record_type(annotation: Any, depth: int = 0) -> Any:
    if annotation is None or depth > 4:
        return None
    origin = typing.get_origin(annotation)
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if origin is typing.Annotated:
        return _record_type(args[0], depth + 1)
    if origin in (typing.Union, types.UnionType):
        return _record_type(args[0], depth + 1) if len(args) == 1 else None
    if origin in (list, tuple, set, frozenset) or (
        isinstance(origin, type) and issubclass(origin, Sequence) and origin is not str
    ):
        return _record_type(args[0], depth + 1) if args else None
    if isinstance(annotation, type) and (
        issubclass(annotation, BaseModel)
        or typing.is_typeddict(annotation)
        or dataclasses.is_dataclass(annotation)
    ):
        return annotation
    return None


def _type_hints(obj: Any) -> dict[str, Any]:
    target = obj
    if not (inspect.isfunction(obj) or inspect.ismethod(obj) or isinstance(obj, type)):
        target = getattr(obj, "__call__", obj)  # noqa: B004 - a callable object's method
    try:
        return typing.get_type_hints(target, include_extras=True)
    except Exception:  # unresolvable forward references: fall back to the raw annotations
        raw = getattr(target, "__annotations__", {})
        return {k: v for k, v in raw.items() if not isinstance(v, str)}


def _parameters(fn: Callable[..., Any], what: str) -> list[inspect.Parameter]:
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError) as exc:
        raise RegistrationError(f"{what}: cannot read the function's signature: {exc}") from exc
    return [p for p in signature.parameters.values() if p.kind not in _SKIPPED_KINDS]


_MODELS: BoundedCache[tuple[Any, ...], tuple[type[BaseModel], dict[str, Any]]] = BoundedCache(4096)
"""Arguments models and their input schemas by parameter list: functions with equal
parameters share one model (a pydantic model class is most of a callable route's memory)
and one schema (generating it is most of a registration's time)."""


def _arguments_model(
    endpoint: str, parameters: list[inspect.Parameter], hints: Mapping[str, Any], what: str
) -> tuple[type[BaseModel], dict[str, Any]]:
    """The model that checks a call's arguments and the input schema it gives, shared by
    functions with equal parameters (the schema is the contract's to copy and intern)."""
    key = tuple((p.name, p.kind, type(p.default), p.default, hints.get(p.name, Any)) for p in parameters)
    try:
        shared = _MODELS.get(key)
    except TypeError:  # an unhashable default or annotation: a model of its own
        model = _new_arguments_model(endpoint, parameters, hints, what)
        return model, _input_schema(model, what)
    if shared is None:
        model = _new_arguments_model("callable", parameters, hints, what)
        shared = _MODELS.put(key, (model, _input_schema(model, what)))
    return shared


def _input_schema(model: type[BaseModel], what: str) -> dict[str, Any]:
    try:
        with warnings.catch_warnings():  # a default that is not JSON is left out, as it should
            warnings.simplefilter("ignore", PydanticJsonSchemaWarning)
            schema = model.model_json_schema(by_alias=True)
    except (PydanticUserError, TypeError, ValueError) as exc:
        raise RegistrationError(f"{what}: a parameter type has no JSON Schema: {exc}") from exc
    schema.pop("title", None)
    schema["additionalProperties"] = False
    return schema


def _new_arguments_model(
    endpoint: str, parameters: list[inspect.Parameter], hints: Mapping[str, Any], what: str
) -> type[BaseModel]:
    definitions: dict[str, Any] = {}
    for index, param in enumerate(parameters):
        annotation = hints.get(param.name, Any)
        if param.default is inspect.Parameter.empty:
            info = Field(alias=param.name)
        else:
            info = Field(default=param.default, alias=param.name)
        definitions[f"p{index}"] = (annotation, info)
    try:
        return create_model(
            f"{safe_name(endpoint)}_arguments",
            __config__=ConfigDict(extra="forbid", arbitrary_types_allowed=True),
            **definitions,
        )
    except (PydanticUserError, TypeError, ValueError) as exc:
        raise RegistrationError(f"{what}: cannot model the parameters: {exc}") from exc
