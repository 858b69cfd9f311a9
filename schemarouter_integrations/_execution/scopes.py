"""Invocation scopes: context managers entered around every invoker call.

A scope is a callable that takes the call's ``tool.start`` event and returns a context
manager; the chain enters every installed scope (in installation order) around each attempt
of the invoker, in the task that runs it, so whatever the scope makes current (a tracing
span, a logging context) is current for the invoker and for every client it uses. The
OpenTelemetry integration installs one that makes the route span the current span; the
core knows nothing of what a scope does.

A scope that raises on entry or exit is logged and skipped: tracing never breaks a call.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager

from ..events import ToolStartEvent

InvocationScope = Callable[[ToolStartEvent], AbstractContextManager[object] | None]
"""Makes the context manager entered around one invoker call (None: nothing to enter)."""

logger = logging.getLogger("schemarouter_integrations.execution")


class InvocationScopes:
    """The scopes installed on one router."""

    def __init__(self) -> None:
        self._scopes: tuple[InvocationScope, ...] = ()

    @property
    def active(self) -> bool:
        """True when a scope is installed (without one, calls are made as they are)."""
        return bool(self._scopes)

    def add(self, scope: InvocationScope) -> Callable[[], None]:
        """Install *scope*; returns a function that removes it again (idempotent)."""
        self._scopes = (*self._scopes, scope)

        def remove() -> None:
            self._scopes = tuple(s for s in self._scopes if s is not scope)

        return remove

    @contextmanager
    def entered(self, start: ToolStartEvent) -> Iterator[None]:
        """Every scope entered for the call that *start* began, exited in reverse order."""
        with ExitStack() as stack:
            for scope in self._scopes:
                try:
                    manager = scope(start)
                    if manager is not None:
                        stack.enter_context(_guarded(manager, scope))
                except Exception:
                    logger.exception("invocation scope %r failed on entry; the call goes on", scope)
            yield


@contextmanager
def _guarded(manager: AbstractContextManager[object], scope: InvocationScope) -> Iterator[None]:
    """*manager* entered; an error of its exit is logged, never raised over the call's outcome,
    and the call's own error is never suppressed by it."""
    manager.__enter__()
    try:
        yield
    except BaseException as exc:
        try:
            manager.__exit__(type(exc), exc, exc.__traceback__)
        except Exception:
            logger.exception("invocation scope %r failed on exit; the call goes on", scope)
        raise
    else:
        try:
            manager.__exit__(None, None, None)
        except Exception:
            logger.exception("invocation scope %r failed on exit; the call goes on", scope)
