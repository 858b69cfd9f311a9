"""OpenTelemetry for router runs: a span per run, a child span per attempted route, metrics.

``instrument(router)`` subscribes to the router's events and records, for every run, a span
``execute_tool <tool name>`` (OpenTelemetry GenAI conventions, plus OpenInference attributes
so Phoenix shows it as a tool) nested under the caller's current span, one child span per
attempted route (``mp_api.search``) with ``error.type`` and ERROR status on the routes that
failed, and span events named as the router events (``tool.retry``, ``tool.fallback``,
``route.unavailable``). A run that fell back and answered has no error status; a failed run
has. Counters of fallbacks and route failures, a gauge of active cooldowns and a histogram
of run durations go to the meter provider.

Needs the ``otel`` extra: ``pip install "schemarouter-integrations[otel]"``.
"""

from __future__ import annotations

from .._lazy import extra_needed as _extra_needed

with _extra_needed("otel", "schemarouter_integrations.otel needs opentelemetry-api"):
    import opentelemetry.trace  # noqa: F401

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes as _lazy_attributes

if TYPE_CHECKING:
    from ._attributes import DEFAULT_TOOL_NAME as DEFAULT_TOOL_NAME
    from ._attributes import error_type as error_type
    from ._instrument import Instrumentation as Instrumentation
    from ._instrument import instrument as instrument


__all__, __getattr__, __dir__ = _lazy_attributes(
    globals(),
    {
        "._attributes": ("DEFAULT_TOOL_NAME", "error_type"),
        "._instrument": ("Instrumentation", "instrument"),
    },
)
