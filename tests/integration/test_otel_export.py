"""Router spans posted with the real OTLP/HTTP exporter to a loopback receiver, decoded with
opentelemetry-proto; a keyed route's credential appears in none of them."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator

import pytest
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor

from schemarouter_integrations import PlanRequest, SchemaRouterError
from schemarouter_integrations.otel import instrument
from tests.integration.test_secret_echo import TOKEN, echo_server, keyed_router
from tests.servers.materials_api import MaterialsApiServer
from tests.servers.otlp_capture import OtlpCapture, attribute_map
from tests.support.http import http_router

pytestmark = [pytest.mark.integration, pytest.mark.anyio]
__all__ = ["echo_server"]  # the fixture, used below

STATUS_ERROR = 2


@pytest.fixture
def otlp() -> Iterator[OtlpCapture]:
    capture = OtlpCapture().start()
    yield capture
    capture.stop()


def exporting(capture: OtlpCapture) -> TracerProvider:
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(OTLPSpanExporter(endpoint=capture.url, timeout=5)))
    return provider


async def test_spans_of_a_fallback_over_http_arrive_over_otlp(
    otlp: OtlpCapture, materials_api: MaterialsApiServer, refused_url: str
) -> None:
    router = http_router(refused_url, materials_api.url)
    provider = exporting(otlp)
    with instrument(router, tracer_provider=provider):
        request = PlanRequest(
            query="band gap of Si", arguments={"formula": "Si"}, fallback_scope="same_provider"
        )
        result = await router.invoke(request)
    provider.shutdown()
    assert result.tool == "mp_mirror"
    assert set(otlp.paths) == {"/v1/traces"}
    spans = {span.name: span for span in otlp.spans}
    assert set(spans) == {"execute_tool schemarouter", "mp_api.search", "mp_mirror.search"}
    run, failed, answered = (
        spans["execute_tool schemarouter"],
        spans["mp_api.search"],
        spans["mp_mirror.search"],
    )
    assert failed.parent_span_id == run.span_id and answered.parent_span_id == run.span_id
    assert attribute_map(run)["gen_ai.operation.name"] == "execute_tool"
    assert attribute_map(failed)["error.type"] == "connect"
    assert failed.status.code == STATUS_ERROR and run.status.code != STATUS_ERROR
    assert [e.name for e in run.events] == ["tool.fallback"]
    assert attribute_map(answered)["schemarouter.scope"] == "same_provider"


async def test_a_keyed_routes_credential_stays_out_of_the_exported_spans(
    otlp: OtlpCapture, echo_server: object
) -> None:
    provider = exporting(otlp)
    async with await keyed_router(echo_server) as router:  # type: ignore[arg-type]
        with instrument(router, tracer_provider=provider):
            for formula in ("busy", "Si"):  # a 503 and a 401 that echo the header back
                with contextlib.suppress(SchemaRouterError):
                    await router.invoke(PlanRequest(query="band gap", arguments={"formula": formula}))
    provider.shutdown()
    spans = otlp.spans
    assert {s.name for s in spans} >= {"execute_tool schemarouter", "echo.gaps"}
    assert any(attribute_map(s).get("error.type") == "http.503" for s in spans)
    exported = b"".join(otlp.bodies)
    assert TOKEN.encode() not in exported and TOKEN[:16].encode() not in exported
    dumped = json.dumps([attribute_map(s) for s in spans])
    assert TOKEN[:16] not in dumped
