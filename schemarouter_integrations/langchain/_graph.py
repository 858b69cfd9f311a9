"""LangGraph's custom stream: router events of a tool run inside a graph go there too.

Only inside a running graph node (``langgraph`` importable, a runtime in the current
config, a writer other than LangGraph's no-op); elsewhere nothing changes. The chunks are
``{"type": "tool.fallback", ...}``: the event's trace payload (see ``trace_payload``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

StreamWriter = Callable[[Any], None]


def graph_writer() -> StreamWriter | None:
    """The custom-stream writer of the LangGraph node running now, or None outside a graph."""
    try:
        from langgraph.config import get_stream_writer
        from langgraph.runtime import Runtime  # noqa: F401 - its presence marks a usable version
    except ImportError:
        return None
    try:
        writer = get_stream_writer()
    except (RuntimeError, KeyError, AttributeError, TypeError):  # not inside a graph
        return None
    if getattr(writer, "__name__", "") == "_no_op_stream_writer":
        return None
    return writer
