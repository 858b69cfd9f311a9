"""Router traces in a real Arize Phoenix server on loopback (``tests/servers/phoenix_server.py``).

OpenInference's LangChain instrumentation, ``opentelemetry-instrumentation-httpx`` and
``otel.instrument`` all export over OTLP/HTTP to Phoenix; the spans are read back through
Phoenix's REST API. Each route appears once (the router's spans draw them), the upstream HTTP
request sits under its route span, and an all-down run's top tool span is an ERROR.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

import pytest
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.instrumentation.httpx import HTTPXClientInstrumentor
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor

from schemarouter_integrations import RetryPolicy, SchemaRouter
from schemarouter_integrations.langchain import SchemaRouterTool
from schemarouter_integrations.otel import instrument
from tests.servers.fault_server import FaultServer, Reply, Status
from tests.servers.phoenix_server import PhoenixServer
from tests.support.environments import EnvironmentUnavailable, environment_or_skip, phoenix_python
from tests.support.langchain import materials_tool, tool_call

pytestmark = [pytest.mark.integration, pytest.mark.anyio, pytest.mark.timeout(600)]  # builds/starts once

ALL_DOWN = ("mp_api", "mp_optimade", "mp_python", "oqmd_api")
ANSWER = Reply(200, {"content-type": "application/json"}, json.dumps({"data": [{"band_gap": 1.12}]}).encode())
_projects = itertools.count()


@pytest.fixture(scope="module")
def phoenix() -> Iterator[PhoenixServer]:
    python = environment_or_skip(phoenix_python, "the Arize Phoenix environment")
    server = environment_or_skip(lambda: _started(python), "the Arize Phoenix server")
    try:
        yield server
    finally:
        server.stop()


def _started(python: Any) -> PhoenixServer:
    try:
        return PhoenixServer(python).start()
    except OSError as exc:
        raise EnvironmentUnavailable(str(exc)) from exc


@pytest.fixture
def exported(phoenix: PhoenixServer) -> Iterator[tuple[TracerProvider, str]]:
    """A tracer provider exporting to Phoenix under a project of its own, with LangChain
    (OpenInference) and httpx instrumented to it."""
    from openinference.instrumentation.langchain import LangChainInstrumentor

    project = f"schemarouter-{next(_projects)}"
    provider = TracerProvider(resource=Resource.create({"openinference.project.name": project}))
    provider.add_span_processor(
        SimpleSpanProcessor(OTLPSpanExporter(endpoint=phoenix.traces_endpoint, timeout=10))
    )
    langchain, httpx_instrumentor = LangChainInstrumentor(), HTTPXClientInstrumentor()
    langchain.instrument(tracer_provider=provider)
    httpx_instrumentor.instrument(tracer_provider=provider)
    try:
        yield provider, project
    finally:
        httpx_instrumentor.uninstrument()
        langchain.uninstrument()
        provider.shutdown()


def named(spans: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    return [s for s in spans if s["name"] == name]


def one(spans: list[dict[str, Any]], name: str) -> dict[str, Any]:
    found = named(spans, name)
    assert len(found) == 1, f"{len(found)} spans named {name!r} in Phoenix: {[s['name'] for s in spans]}"
    return found[0]


def span_id(span: dict[str, Any]) -> str:
    return str(span["context"]["span_id"])


async def test_phoenix_shows_each_route_once_with_its_http_request_under_it(
    phoenix: PhoenixServer, exported: tuple[TracerProvider, str], fault_server: FaultServer
) -> None:
    provider, project = exported
    async with SchemaRouter() as router:
        for name, fault in (("primary", Status(503)), ("mirror", ANSWER)):
            await router.add_url(
                fault_server.route(f"phoenix-{project}-{name}", fault),
                kind="openapi",
                name=name,
                provider="p",
                retry=RetryPolicy(max_attempts=1),
                timeout_seconds=2.0,
            )
        tool = SchemaRouterTool(
            router=router, name="materials", fallback_scope="same_provider", preferred_tools=["primary"]
        )
        with instrument(router, tracer_provider=provider):
            message = await tool.ainvoke(tool_call())
    assert message.status == "success"
    # two GETs of the documents (at registration), materials, execute_tool materials, two
    # routes and their two GETs
    spans = phoenix.wait_for_spans(project, 8)
    top, run = one(spans, "materials"), one(spans, "execute_tool materials")
    primary, mirror = one(spans, "primary.search"), one(spans, "mirror.search")
    assert top["parent_id"] is None and top["span_kind"] == "TOOL" and top["status_code"] == "OK"
    assert run["parent_id"] == span_id(top)
    assert primary["parent_id"] == mirror["parent_id"] == span_id(run)
    assert primary["span_kind"] == mirror["span_kind"] == "TOOL"
    assert primary["status_code"] == "ERROR" and mirror["status_code"] != "ERROR"
    calls = [s for s in spans if s["name"] == "GET" and "/materials" in json.dumps(s["attributes"])]
    assert sorted(str(s["parent_id"]) for s in calls) == sorted([span_id(primary), span_id(mirror)])
    assert len(spans) == 8, [(s["name"], s["parent_id"], s["span_kind"]) for s in spans]


async def test_phoenix_shows_an_all_down_run_as_an_error_tool_span(
    phoenix: PhoenixServer, exported: tuple[TracerProvider, str]
) -> None:
    provider, project = exported
    tool = materials_tool(down=ALL_DOWN)
    with instrument(tool.router, tracer_provider=provider):
        message = await tool.ainvoke(tool_call())
    assert message.status == "error"
    tried = list(message.artifact["routes_tried"])
    spans = phoenix.wait_for_spans(project, 2 + len(tried))
    top, run = one(spans, "materials"), one(spans, "execute_tool materials")
    assert top["parent_id"] is None and top["span_kind"] == "TOOL"
    assert top["status_code"] == "ERROR"
    assert "AllRoutesUnavailableError" in top["status_message"]
    assert run["status_code"] == "ERROR" and run["parent_id"] == span_id(top)
    for route in tried:
        assert one(spans, route)["status_code"] == "ERROR"
    assert len(spans) == 2 + len(tried), [(s["name"], s["parent_id"], s["span_kind"]) for s in spans]
