"""Checks on the trusted callables an application hands to the router (invokers, probes, sinks)."""

from __future__ import annotations

import inspect


def call_problem(fn: object, arguments: int) -> str | None:
    """Why *fn* cannot be called with *arguments* positional arguments, or None.

    A callable whose signature cannot be read (some builtins) gets the benefit of the doubt.
    """
    if not callable(fn):
        return f"{type(fn).__name__} is not callable"
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    try:
        signature.bind(*([None] * arguments))
    except TypeError as exc:
        return f"it cannot be called with {arguments} positional argument(s) ({exc})"
    return None


def is_async_callable(fn: object) -> bool:
    """True for an ``async def`` function, or an object whose ``__call__`` is one."""
    return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(
        getattr(fn, "__call__", None)  # noqa: B004 - a callable object's method
    )
