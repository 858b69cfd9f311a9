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

    async def invoke(call: Any) -> Any:
        try:
            validated = model.__pydantic_validator__.validate_python(dict(call.arguments))  # model_validate
        except ValidationError as exc:
            raise SchemaValidationError(
                f"arguments for {call.tool}.{call.endpoint} do not fit the function: {exc}"
            ) from exc
        given = validated.model_fields_set
        args: list[Any] = []
        if by_name:
            kwargs = {name: getattr(validated, key) for key, name in named if key in given}
        else:
            kwargs = {}
            last_positional = max((i for i, p in enumerate(positional) if p and f"p{i}" in given), default=-1)
            for index, (key, name) in enumerate(named):
                if positional[index]:
                    if index <= last_positional:
                        args.append(getattr(validated, key))
                elif key in given:
                    kwargs[name] = getattr(validated, key)
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
        return _ANY_DUMP.dump_python(result, mode="python", by_alias=False)

    # part of the answer key: answers of different functions are never shared
    invoke.answer_scope = function_scope(fn)  # type: ignore[attr-defined]
    return invoke


def function_scope(fn: Callable[..., Any]) -> str:
    """``python:<module>.<qualified name>`` of *fn* (stable across the processes of a fleet)."""
    named = fn if hasattr(fn, "__qualname__") else type(fn)
    target = getattr(fn, "func", None)  # functools.partial
    if target is not None and hasattr(target, "__qualname__"):
        named = target
    return f"python:{getattr(named, '__module__', '')}.{getattr(named, '__qualname__', '')}"
