"""Traces that nest: while an invoker runs, its route span is the current OpenTelemetry span,
so the spans of an instrumented HTTP client (``opentelemetry-instrumentation-httpx``) are its
children. Real loopback routes (``tests/servers/fault_server.py``), the SDK's in-memory exporter;
a primary that answers, a primary that fails over to its fallback (async, ``invoke_sync``, a sync
client in a worker thread) and a hedged pair whose two calls each sit under their own route span."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import pytest
from opentelemetry.instrumentation.httpx import HTTPXClientInstrumentor
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from schemarouter_integrations import HedgePolicy, PlanRequest, RetryPolicy, RouterEvent, SchemaRouter
from schemarouter_integrations.otel import instrument
from tests.servers.fault_server import FaultServer, Hang, Reply, Status
from tests.support.otel import tracer_provider

pytestmark = [pytest.mark.integration, pytest.mark.anyio]

RECORDS = [{"band_gap": 1.12}]
ANSWER = Reply(200, {"content-type": "application/json"}, json.dumps({"data": RECORDS}).encode())
_slugs = itertools.count()


@pytest.fixture
def traced() -> Iterator[tuple[TracerProvider, InMemorySpanExporter]]:
    """A tracer provider with an in-memory exporter, and httpx instrumented to it."""
    provider, exporter = tracer_provider()
    instrumentor = HTTPXClientInstrumentor()
    instrumentor.instrument(tracer_provider=provider)
    try:
        yield provider, exporter
    finally:
        instrumentor.uninstrument()


def slug(what: str) -> str:
    return f"nest-{what}-{next(_slugs)}"


def http_spans(spans: list[ReadableSpan], route: str) -> list[ReadableSpan]:
    """The httpx client spans of the API requests (not the document) to fault route *route*."""

    def url(span: ReadableSpan) -> str:
        attributes = span.attributes or {}
        return str(attributes.get("url.full") or attributes.get("http.url") or "")

    return [s for s in spans if f"/{route}/" in url(s) and not url(s).endswith("/openapi.json")]


def route_span(spans: list[ReadableSpan], name: str) -> ReadableSpan:
    (span,) = [s for s in spans if s.name == name]
    return span


def parent_of(span: ReadableSpan) -> int | None:
    return span.parent.span_id if span.parent is not None else None


async def add_route(router: SchemaRouter, server: FaultServer, route: str, name: str, fault: Any) -> None:
    await router.add_url(
        server.route(route, fault),
        kind="openapi",
        name=name,
        provider="p",
        retry=RetryPolicy(max_attempts=2, jitter=False),
        timeout_seconds=0.5,
    )


REQUEST = PlanRequest(
    query="Si band gap",
    arguments={"formula": "Si"},
    preferred_tools=["primary"],
    fallback_scope="same_provider",
)


async def test_the_http_span_of_a_primary_that_answers_is_a_child_of_its_route_span(
    fault_server: FaultServer, traced: tuple[TracerProvider, InMemorySpanExporter]
) -> None:
    provider, exporter = traced
    up = slug("up")
    async with SchemaRouter() as router:
        await add_route(router, fault_server, up, "primary", ANSWER)
        with instrument(router, tracer_provider=provider):
            result = await router.invoke(REQUEST)
    assert result.records == RECORDS
    spans = list(exporter.get_finished_spans())
    route = route_span(spans, "primary.search")
    (get,) = http_spans(spans, up)
    assert parent_of(get) == route.context.span_id
    assert get.context.trace_id == route.context.trace_id


async def test_each_attempt_of_a_failing_primary_and_its_fallback_nest_under_their_route_spans(
    fault_server: FaultServer, traced: tuple[TracerProvider, InMemorySpanExporter]
) -> None:
    provider, exporter = traced
    down, up = slug("down"), slug("up")
    async with SchemaRouter() as router:
        await add_route(router, fault_server, down, "primary", Status(503))
        await add_route(router, fault_server, up, "mirror", ANSWER)
        with instrument(router, tracer_provider=provider):
            result = await router.invoke(REQUEST)
    assert result.route == ["primary.search", "mirror.search"]
    spans = list(exporter.get_finished_spans())
    primary, mirror = route_span(spans, "primary.search"), route_span(spans, "mirror.search")
    failed = http_spans(spans, down)
    assert len(failed) == 2  # both attempts
    assert {parent_of(s) for s in failed} == {primary.context.span_id}
    (answered,) = http_spans(spans, up)
    assert parent_of(answered) == mirror.context.span_id


def test_invoke_sync_nests_the_http_spans_of_primary_and_fallback(
    fault_server: FaultServer, traced: tuple[TracerProvider, InMemorySpanExporter]
) -> None:
    provider, exporter = traced
    down, up = slug("down"), slug("up")

    async def build() -> SchemaRouter:
        router = SchemaRouter()
        await add_route(router, fault_server, down, "primary", Status(503))
        await add_route(router, fault_server, up, "mirror", ANSWER)
        return router

    router = anyio.run(build)
    with instrument(router, tracer_provider=provider):
        result = router.invoke_sync(REQUEST)
    assert result.tool == "mirror"
    spans = list(exporter.get_finished_spans())
    primary, mirror = route_span(spans, "primary.search"), route_span(spans, "mirror.search")
    assert {parent_of(s) for s in http_spans(spans, down)} == {primary.context.span_id}
    assert [parent_of(s) for s in http_spans(spans, up)] == [mirror.context.span_id]


async def test_a_sync_client_in_a_worker_thread_nests_under_its_route_span(
    fault_server: FaultServer, traced: tuple[TracerProvider, InMemorySpanExporter]
) -> None:
    provider, exporter = traced
    down, up = slug("sync-down"), slug("sync-up")
    fault_server.route(down, Status(503))
    fault_server.route(up, ANSWER)

    def client(route: str) -> Any:
        def fetch(formula: str) -> list[dict[str, Any]]:
            with httpx.Client(timeout=0.5) as http:  # a sync client: the router runs it in a thread
                response = http.get(f"{fault_server.url}/{route}/materials", params={"formula": formula})
                response.raise_for_status()
                return list(response.json()["data"])

        return fetch

    async with SchemaRouter() as router:
        for name, route in (("primary", down), ("mirror", up)):
            router.add_callable(
                client(route),
                name=name,
                provider="p",
                read_only=True,
                fields=["band_gap"],
                retry=RetryPolicy(max_attempts=1),
            )
        with instrument(router, tracer_provider=provider):
            result = await router.invoke(REQUEST)
    assert result.route == ["primary.fetch", "mirror.fetch"]
    spans = list(exporter.get_finished_spans())
    primary, mirror = route_span(spans, "primary.fetch"), route_span(spans, "mirror.fetch")
    assert [parent_of(s) for s in http_spans(spans, down)] == [primary.context.span_id]
    assert [parent_of(s) for s in http_spans(spans, up)] == [mirror.context.span_id]


async def test_each_hedged_call_nests_its_http_span_under_its_own_route_span(
    fault_server: FaultServer, traced: tuple[TracerProvider, InMemorySpanExporter]
) -> None:
    provider, exporter = traced
    hanging, up = slug("hang"), slug("up")
    cooled = anyio.Event()

    def sink(event: RouterEvent) -> None:
        if event.type == "route.unavailable":
            cooled.set()

    async with SchemaRouter() as router:
        for name, route, fault in (("primary", hanging, Hang()), ("mirror", up, ANSWER)):
            await router.add_url(
                fault_server.route(route, fault),
                kind="openapi",
                name=name,
                provider="p",
                retry=RetryPolicy(max_attempts=1),
                timeout_seconds=0.5,
            )
        router.subscribe(sink)
        with instrument(router, tracer_provider=provider):
            result = await router.invoke(REQUEST.model_copy(update={"hedge": HedgePolicy(0.05)}))
            assert result.tool == "mirror"
            with anyio.fail_after(10):
                await cooled.wait()  # the outrun call ended with its own timeout
    spans = list(exporter.get_finished_spans())
    primary, mirror = route_span(spans, "primary.search"), route_span(spans, "mirror.search")
    (slow,) = http_spans(spans, hanging)
    (fast,) = http_spans(spans, up)
    assert parent_of(slow) == primary.context.span_id
    assert parent_of(fast) == mirror.context.span_id
