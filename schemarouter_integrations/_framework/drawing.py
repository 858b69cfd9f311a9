"""Which layer draws a router's route spans in OpenTelemetry.

Two layers can: ``otel.instrument`` (a span per attempted route, current while its invoker
runs, so HTTP and database spans nest under it) and a framework's OpenInference
instrumentation, which turns the LangChain face's child run per route into a span. Drawing
both shows each route twice in Phoenix. The rule: while a router is instrumented with
``otel.instrument``, its spans draw the routes and the LangChain face keeps its route child
runs from OpenInference tracers (LangSmith and other callback handlers still get them);
without it, OpenInference draws them from the child runs.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable

_claims: weakref.WeakKeyDictionary[object, int] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def claim_route_spans(router: object) -> Callable[[], None]:
    """Say that *router*'s route spans are drawn by OpenTelemetry; returns the release (idempotent)."""
    with _lock:
        _claims[router] = _claims.get(router, 0) + 1
    released = False

    def release() -> None:
        nonlocal released
        with _lock:
            if released:
                return
            released = True
            left = _claims.get(router, 0) - 1
            if left > 0:
                _claims[router] = left
            else:
                _claims.pop(router, None)

    return release


def route_spans_drawn(router: object) -> bool:
    """True while *router* is instrumented with ``otel.instrument``."""
    with _lock:
        return _claims.get(router, 0) > 0


def is_openinference_handler(handler: object) -> bool:
    """True for a callback handler of an OpenInference instrumentation (it makes OTel spans)."""
    return type(handler).__module__.startswith("openinference.")
