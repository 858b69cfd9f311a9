"""The invoker of a Python function route: validated arguments in, plain data out.

A sync function runs in a worker thread (abandoned when the call times out or the run is
cancelled), a coroutine function on the loop; what it raises is sorted into unavailable (see
:mod:`._client_errors`) or left to end the run.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Callable
from typing import Any

import anyio
import anyio.to_thread
from pydantic import BaseModel, TypeAdapter, ValidationError

from .._caching import CacheHints
from .._execution.eager import bounded
from .._registry import Invoker
from ..errors import InvocationUnavailableError, SchemaRouterError, SchemaValidationError
from ._client_errors import unavailable_error

__all__ = ["callable_invoker", "function_scope"]

_ANY_DUMP: TypeAdapter[Any] = TypeAdapter(Any)


def callable_invoker(
    fn: Callable[..., Any],
    parameters: list[inspect.Parameter],
    model: type[BaseModel],
    timeout: float | None,
    unavailable_on: tuple[type[BaseException], ...],
) -> Invoker:
    is_async = inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(
        getattr(fn, "__call__", None)  # noqa: B004 - a callable object's method
    )
    positional = [p.kind == inspect.Parameter.POSITIONAL_ONLY for p in parameters]
    by_name = not any(positional)  # every argument passed by name: the common case, in one step
    named = [(f"p{index}", param.name) for index, param in enumerate(parameters)]

    def keywords(call: Any) -> tuple[list[Any], dict[str, Any]]:
        """The positional and keyword arguments of *call*, validated by *model*."""
        try:
            validated = model.__pydantic_validator__.validate_python(dict(call.arguments))  # model_validate
        except ValidationError as exc:
            raise SchemaValidationError(
                f"arguments for {call.tool}.{call.endpoint} do not fit the function: {exc}"
            ) from exc
        given = validated.model_fields_set
        args: list[Any] = []
        if by_name:
            return args, {name: getattr(validated, key) for key, name in named if key in given}
        kwargs: dict[str, Any] = {}
        last_positional = max((i for i, p in enumerate(positional) if p and f"p{i}" in given), default=-1)
        for index, (key, name) in enumerate(named):
            if positional[index]:
                if index <= last_positional:
                    args.append(getattr(validated, key))
            elif key in given:
                kwargs[name] = getattr(validated, key)
        return args, kwargs

    last: list[tuple[Any, dict[str, Any]] | None] = [None]
    """The plain arguments last validated, with their keywords when those are plain too: the
    same arguments again (a request asked again) are not validated again."""

    async def invoke(call: Any) -> Any:
        key, known = _plain_key(call.arguments), last[0]
        args: list[Any] = []
        if key is not None and known is not None and key == known[0]:
            kwargs = dict(known[1])
        else:
            args, kwargs = keywords(call)
            if key is not None and not args and all(type(v) in _SCALARS for v in kwargs.values()):
                last[0] = key, dict(kwargs)
        overran = False
        try:
            if is_async:  # no timer for a coroutine that answers without waiting (_execution/eager.py)
                result, overran = await bounded(fn(*args, **kwargs), timeout)
            else:
                with anyio.move_on_after(timeout) as bound:
                    # abandoned on cancellation: the run never waits for a stuck thread
                    result = await anyio.to_thread.run_sync(
                        functools.partial(fn, *args, **kwargs), abandon_on_cancel=True
                    )
                    if inspect.isawaitable(result):
                        result = await result
                overran = bound.cancelled_caught
        except SchemaRouterError:
            raise
        except Exception as exc:
            found = unavailable_error(exc, f"{call.tool}.{call.endpoint}", unavailable_on=unavailable_on)
            if found is None:
                raise
            raise found from exc
        if overran:
            raise InvocationUnavailableError(
                f"{call.tool}.{call.endpoint} did not answer within {timeout:g}s", transport=True
            )
        if type(result) is CacheHints:  # the function's own caching hints travel on
            return dataclasses.replace(result, response=_ANY_DUMP.dump_python(result.response, mode="python"))
        if type(result) is list and all(type(item) is dict and _plain_record(item) for item in result):
            return [dict(item) for item in result]  # what the dump gives: the caller's list is never shared
        return _ANY_DUMP.dump_python(result, mode="python", by_alias=False)

    # part of the answer key: answers of different functions are never shared
    invoke.answer_scope = function_scope(fn)  # type: ignore[attr-defined]
    return invoke


_SCALARS = frozenset({str, int, bool, float, type(None)})


def _plain_key(arguments: Any) -> tuple[tuple[str, type, Any], ...] | None:
    """*arguments* as ``(name, type, value)`` when every value is a string, number, boolean
    or null (the type keeps ``1``, ``1.0`` and ``True`` apart; a float is keyed by its repr:
    ``-0.0`` is not ``0.0``, NaN is itself), else None."""
    if type(arguments) is not dict:
        return None
    key: list[tuple[str, type, Any]] = []
    for name, value in arguments.items():
        kind = type(value)
        if kind not in _SCALARS:
            return None
        key.append((name, kind, repr(value) if kind is float else value))
    return tuple(key)


def _plain_record(record: dict[Any, Any]) -> bool:
    """A record of string keys and strings, numbers, booleans and nulls (dumped as itself)."""
    for key, value in record.items():
        kind = type(value)
        if type(key) is not str or kind not in _SCALARS:
            return False
    return True


def function_scope(fn: Callable[..., Any]) -> str:
    """``python:<module>.<qualified name>`` of *fn* (stable across the processes of a fleet)."""
    named = fn if hasattr(fn, "__qualname__") else type(fn)
    target = getattr(fn, "func", None)  # functools.partial
    if target is not None and hasattr(target, "__qualname__"):
        named = target
    return f"python:{getattr(named, '__module__', '')}.{getattr(named, '__qualname__', '')}"
