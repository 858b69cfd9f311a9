"""Python callables as tools."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..contracts import ToolSpec
from ..registry import Invoker


def build_callable_route(fn: Callable[..., Any], *, name: str, **options: Any) -> tuple[ToolSpec, Invoker]:
    """Build the ToolSpec and invoker for a sync or async function."""
    raise NotImplementedError("callable adapter is not implemented yet")
