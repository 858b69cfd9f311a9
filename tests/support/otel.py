"""OpenTelemetry SDK helpers: an in-memory span exporter and metric reader, and span-tree lookups."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from schemarouter_integrations import SchemaRouter
from schemarouter_integrations.otel import Instrumentation, instrument


@dataclass
class Recorded:
    """What an instrumented router recorded: finished spans and metrics."""

    exporter: InMemorySpanExporter
    reader: InMemoryMetricReader
    tracer_provider: TracerProvider
    handle: Instrumentation

    @property
    def spans(self) -> list[ReadableSpan]:
        return list(self.exporter.get_finished_spans())

    def named(self, name: str) -> list[ReadableSpan]:
        return [s for s in self.spans if s.name == name]

    def one(self, name: str) -> ReadableSpan:
        (span,) = self.named(name)
        return span

    def children_of(self, span: ReadableSpan) -> list[ReadableSpan]:
        own = span.context.span_id
        children = [s for s in self.spans if s.parent is not None and s.parent.span_id == own]
        return sorted(children, key=lambda s: s.start_time or 0)

    def metric_points(self, name: str) -> list[Any]:
        data = self.reader.get_metrics_data()
        points: list[Any] = []
        for resource in data.resource_metrics if data else []:
            for scope in resource.scope_metrics:
                for metric in scope.metrics:
                    if metric.name == name:
                        points.extend(metric.data.data_points)
        return points


def tracer_provider() -> tuple[TracerProvider, InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider, exporter


@contextmanager
def recording(router: SchemaRouter, **options: Any) -> Iterator[Recorded]:
    """Instrument *router* with in-memory providers for the block."""
    provider, exporter = tracer_provider()
    reader = InMemoryMetricReader()
    handle = instrument(
        router, tracer_provider=provider, meter_provider=MeterProvider(metric_readers=[reader]), **options
    )
    try:
        yield Recorded(exporter, reader, provider, handle)
    finally:
        handle.uninstrument()


def event_names(span: ReadableSpan) -> list[str]:
    return [e.name for e in span.events]


def ancestors(span: ReadableSpan, spans: Sequence[ReadableSpan]) -> list[ReadableSpan]:
    """The spans above *span* in *spans*, nearest first."""
    by_id = {s.context.span_id: s for s in spans}
    out: list[ReadableSpan] = []
    parent = span.parent
    while parent is not None and parent.span_id in by_id:
        above = by_id[parent.span_id]
        out.append(above)
        parent = above.parent
    return out
