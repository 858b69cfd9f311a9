"""Which framework tool is running the current router run, for tracing.

A face sets :func:`invoking` around one model call; observers (the OpenTelemetry
instrumentation) read :func:`current_invocation` when a run starts, in the same context.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

__all__ = ["ToolInvocation", "current_invocation", "invoking"]


@dataclass(frozen=True, slots=True)
class ToolInvocation:
    """The framework tool behind a run: its name, the model's tool-call id, the framework."""

    name: str
    call_id: str | None = None
    framework: str | None = None


_current: ContextVar[ToolInvocation | None] = ContextVar("schemarouter_tool_invocation", default=None)


def current_invocation() -> ToolInvocation | None:
    """The tool invocation of the run starting in this context, if a face set one."""
    return _current.get()


@contextmanager
def invoking(invocation: ToolInvocation | None) -> Iterator[None]:
    """Make *invocation* current for the block (nothing changes when it is None)."""
    if invocation is None:
        yield
        return
    token = _current.set(invocation)
    try:
        yield
    finally:
        _current.reset(token)
