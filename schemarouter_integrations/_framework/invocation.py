"""Which framework tool is running the current router run, for tracing.

A face sets :func:`invoking` around one model call; observers (the OpenTelemetry
instrumentation) read :func:`current_invocation` when a run starts, in the same context.
"""

from __future__ import annotations

from contextvars import ContextVar, Token
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


def invoking(invocation: ToolInvocation | None) -> _Invoking:
    """Make *invocation* current for the block (nothing changes when it is None)."""
    return _Invoking(invocation)


class _Invoking:
    """The context manager of :func:`invoking` (a class: entered on every model call, it
    costs a fraction of a generator-based one)."""

    __slots__ = ("_invocation", "_token")

    def __init__(self, invocation: ToolInvocation | None) -> None:
        self._invocation = invocation
        self._token: Token[ToolInvocation | None] | None = None

    def __enter__(self) -> None:
        if self._invocation is not None:
            self._token = _current.set(self._invocation)

    def __exit__(self, *exc_info: object) -> None:
        token, self._token = self._token, None
        if token is not None:
            _current.reset(token)
