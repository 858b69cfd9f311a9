"""Whether anything reads what a LlamaIndex dispatcher sends: a real event or span handler on
it or on a parent it propagates to (LlamaIndex's root dispatcher holds a ``NullEventHandler``
and a ``NullSpanHandler`` that read nothing)."""

from __future__ import annotations

# llama_index.core re-exports this without __all__; the ignore only silences that.
from llama_index.core.instrumentation.dispatcher import Dispatcher  # type: ignore[attr-defined]

__all__ = ["listening", "observed", "observed_by_any", "tracing_spans"]


def listening(dispatcher: Dispatcher) -> bool:
    """Whether an event sent on *dispatcher* reaches any handler."""
    return _reaches(dispatcher, events=True, spans=False)


def tracing_spans(dispatcher: Dispatcher) -> bool:
    """Whether a span on *dispatcher* reaches any span handler."""
    return _reaches(dispatcher, events=False, spans=True)


def observed(dispatcher: Dispatcher) -> bool:
    """``listening(dispatcher) or tracing_spans(dispatcher)``, in one walk up the dispatchers."""
    return _reaches(dispatcher, events=True, spans=True)


def observed_by_any(dispatchers: tuple[Dispatcher, ...]) -> bool:
    """``any(observed(d) for d in dispatchers)``; a parent they share (the root) is read once."""
    seen: set[int] = set()
    for start in dispatchers:
        current: Dispatcher | None = start
        while current is not None and id(current) not in seen:
            seen.add(id(current))
            if _holds_a_handler(current, events=True, spans=True):
                return True
            current = current.parent if current.propagate else None
    return False


def _holds_a_handler(dispatcher: Dispatcher, *, events: bool, spans: bool) -> bool:
    if events:
        for handler in dispatcher.event_handlers:
            if type(handler).__name__ != "NullEventHandler":
                return True
    if spans:
        for span_handler in dispatcher.span_handlers:
            if type(span_handler).__name__ != "NullSpanHandler":
                return True
    return False


def _reaches(dispatcher: Dispatcher, *, events: bool, spans: bool) -> bool:
    """Whether *dispatcher* or a parent it propagates to holds a real (not null) event handler
    (*events*) or span handler (*spans*); asked on every call, so written without generators."""
    current: Dispatcher | None = dispatcher
    while current is not None:
        if _holds_a_handler(current, events=events, spans=spans):
            return True
        current = current.parent if current.propagate else None
    return False
