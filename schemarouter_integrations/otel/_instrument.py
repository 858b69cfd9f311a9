"""``instrument(router)``: the OpenTelemetry sink of one router, and its handle."""

from __future__ import annotations

from types import TracebackType

from opentelemetry import metrics, trace

from .._framework import claim_route_spans
from .._router import SchemaRouter
from ..events import RouterEvent
from ._attributes import DEFAULT_TOOL_NAME
from ._metrics import RouterMetrics
from ._spans import RunSpans

SCOPE = "schemarouter_integrations"


class Instrumentation:
    """An instrumented router; :meth:`uninstrument` stops recording (also on ``with`` exit).

    ``spans`` builds the spans of each run, ``metrics`` holds the instruments.
    """

    def __init__(
        self,
        router: SchemaRouter,
        *,
        tracer_provider: trace.TracerProvider | None = None,
        meter_provider: metrics.MeterProvider | None = None,
        tool_name: str = DEFAULT_TOOL_NAME,
    ) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            own = version("schemarouter-integrations")
        except PackageNotFoundError:  # pragma: no cover - running from a source tree
            own = None
        tracer = trace.get_tracer(SCOPE, own, tracer_provider=tracer_provider)
        meter = metrics.get_meter(SCOPE, own or "", meter_provider=meter_provider)
        self.router = router
        self.spans = RunSpans(tracer, default_tool_name=tool_name)
        self.metrics = RouterMetrics(meter, self._cooldowns)
        self._unsubscribe = router.subscribe(self._on_event)
        self._unscope = router.add_invocation_scope(self.spans.scope)
        self._release_routes = claim_route_spans(router)
        self.active = True

    def _on_event(self, event: RouterEvent) -> None:
        self.metrics.record(event)
        ended = self.spans.handle(event)
        if ended is not None:
            self.metrics.ended(ended)

    def _cooldowns(self) -> dict[str | None, int]:
        counts: dict[str | None, int] = {}
        for path in self.router.inspect().execution.cooldowns:
            spec = self.router.registry.tool(path.split(".", 1)[0])
            provider = spec.provider if spec is not None else None
            counts[provider] = counts.get(provider, 0) + 1
        return counts

    def uninstrument(self) -> None:
        """Stop listening to the router and end the spans still open. Idempotent."""
        if not self.active:
            return
        self.active = False
        self._unsubscribe()
        self._unscope()
        self._release_routes()
        self.metrics.stop()
        self.spans.close()

    def __enter__(self) -> Instrumentation:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.uninstrument()


def instrument(
    router: SchemaRouter,
    *,
    tracer_provider: trace.TracerProvider | None = None,
    meter_provider: metrics.MeterProvider | None = None,
    tool_name: str = DEFAULT_TOOL_NAME,
) -> Instrumentation:
    """Record the router's runs as OpenTelemetry spans and metrics until ``.uninstrument()``.

    *tracer_provider* / *meter_provider* default to the global providers. *tool_name* is the
    ``gen_ai.tool.name`` of runs started outside a framework tool (inside one, its name).
    """
    return Instrumentation(
        router, tracer_provider=tracer_provider, meter_provider=meter_provider, tool_name=tool_name
    )
