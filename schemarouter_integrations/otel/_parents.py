"""The parent of a run span: the framework's tool span when one is known, else the current context.

OpenInference's LlamaIndex instrumentation makes its spans current, so the OpenTelemetry
context already names them. Its LangChain instrumentation keeps its spans out of the
context (callbacks may never detach them); its span of the running LangChain tool is found
through the LangChain run that is current, when that instrumentation is imported and active.
"""

from __future__ import annotations

import sys

from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.context import Context


def parent_context() -> Context:
    """The OpenTelemetry context a run started now should be a child of."""
    current = otel_context.get_current()
    span = _langchain_tool_span()
    return trace.set_span_in_context(span, current) if span is not None else current


def _langchain_tool_span() -> trace.Span | None:
    module = sys.modules.get("openinference.instrumentation.langchain")
    if module is None:
        return None
    try:
        if not module.LangChainInstrumentor().is_instrumented_by_opentelemetry:
            return None
        span = module.get_current_span()
    except Exception:  # another version of the instrumentation: fall back to the context
        return None
    if isinstance(span, trace.Span) and span.get_span_context().is_valid:
        return span
    return None
