"""What an invoker tells the run about its answer beyond the raw response.

An invoker that relays another router's answer (an MCP route to a router's MCP server)
knows where that answer came from and which fallbacks the other router took. It reports
them on the :func:`call_notes` of the call it serves; the chain then puts the provenance on
the :class:`~..events.ToolResult` and each inner fallback in the run's events
(``route.inner_fallback``), never as a ``tool.fallback`` of this router.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass, field

from ..events import InnerFallback, Provenance

__all__ = ["CallNotes", "call_notes", "noting"]


@dataclass(slots=True)
class CallNotes:
    """The notes of one attempt: the inner answer's provenance and the inner fallbacks."""

    provenance: Provenance | None = None
    inner_fallbacks: list[InnerFallback] = field(default_factory=list)


_current: ContextVar[CallNotes | None] = ContextVar("schemarouter_call_notes", default=None)


def call_notes() -> CallNotes | None:
    """The notes of the call the current invoker serves (None outside a router call, and for
    in-process functions and HTTP targets, which never relay: ``attempts._may_relay``)."""
    return _current.get()


def noting(notes: CallNotes) -> _Noting:
    """Make *notes* the current call's notes for the ``with`` block."""
    return _Noting(notes)


class _Noting:
    """The context manager of :func:`noting` (a class: no generator per attempt)."""

    __slots__ = ("notes", "token")

    def __init__(self, notes: CallNotes) -> None:
        self.notes = notes

    def __enter__(self) -> CallNotes:
        self.token = _current.set(self.notes)
        return self.notes

    def __exit__(self, *exc_info: object) -> None:
        _current.reset(self.token)
