"""Router spans inside the frameworks' own OpenTelemetry traces (OpenInference instrumentors):
the run span sits under the framework's span of the tool call."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider

from schemarouter_integrations.llamaindex import SchemaRouterToolSpec
from schemarouter_integrations.otel import instrument
from tests.support.langchain import QUESTION, make_agent, materials_tool, tool_call
from tests.support.llamaindex import function_calling_llm
from tests.support.otel import ancestors, tracer_provider
from tests.support.seed import seed_router

pytestmark = [pytest.mark.integration, pytest.mark.anyio]


def kind(span: ReadableSpan) -> object:
    return (span.attributes or {}).get("openinference.span.kind")


@pytest.fixture
def langchain_instrumented() -> Iterator[tuple[TracerProvider, object]]:
    from openinference.instrumentation.langchain import LangChainInstrumentor

    provider, exporter = tracer_provider()
    instrumentor = LangChainInstrumentor()
    instrumentor.instrument(tracer_provider=provider)
    try:
        yield provider, exporter
    finally:
        instrumentor.uninstrument()


@pytest.fixture
def llamaindex_instrumented() -> Iterator[tuple[TracerProvider, object]]:
    from openinference.instrumentation.llama_index import LlamaIndexInstrumentor

    provider, exporter = tracer_provider()
    instrumentor = LlamaIndexInstrumentor()
    instrumentor.instrument(tracer_provider=provider)
    try:
        yield provider, exporter
    finally:
        instrumentor.uninstrument()


async def test_langchain_agent_trace_holds_the_router_spans_under_the_tool_span(
    langchain_instrumented: tuple[TracerProvider, object],
) -> None:
    provider, exporter = langchain_instrumented
    tool = materials_tool(down=("mp_api",))
    with instrument(tool.router, tracer_provider=provider):
        answer = await make_agent(tool).ainvoke(QUESTION)
    assert "mp_optimade.search" in answer
    spans = list(exporter.get_finished_spans())  # type: ignore[attr-defined]
    (run,) = [s for s in spans if s.name == "execute_tool materials"]
    above = ancestors(run, spans)
    assert above[0].name == "materials" and kind(above[0]) == "TOOL"
    assert "agent" in [s.name for s in above]
    routes = [s.name for s in spans if s.parent is not None and s.parent.span_id == run.context.span_id]
    assert routes == ["mp_api.search", "mp_optimade.search"]


async def test_llamaindex_agent_trace_holds_the_router_spans_under_the_tool_call(
    llamaindex_instrumented: tuple[TracerProvider, object],
) -> None:
    from llama_index.core.agent.workflow import FunctionAgent

    provider, exporter = llamaindex_instrumented
    router, _ = seed_router(down=("mp_api",))
    spec = SchemaRouterToolSpec(router, name="materials", fallback_scope="cross_provider")
    agent = FunctionAgent(tools=spec.to_tool_list(), llm=function_calling_llm("materials"))
    with instrument(router, tracer_provider=provider):
        await agent.run(user_msg=QUESTION)
    spans = list(exporter.get_finished_spans())  # type: ignore[attr-defined]
    (run,) = [s for s in spans if s.name == "execute_tool materials"]
    above = ancestors(run, spans)
    assert above, "the run span has no parent in the LlamaIndex trace"
    assert any(kind(s) == "TOOL" for s in above)
    assert run.context.trace_id == above[-1].context.trace_id
    routes = [s.name for s in spans if s.parent is not None and s.parent.span_id == run.context.span_id]
    assert routes == ["mp_api.search", "mp_optimade.search"]
    assert [s.name for s in spans].count("mp_api.search") == 1  # LlamaIndex draws no route itself


ALL_DOWN = ("mp_api", "mp_optimade", "mp_python", "oqmd_api")


def named(spans: list[ReadableSpan], name: str) -> list[ReadableSpan]:
    return [s for s in spans if s.name == name]


async def test_with_otel_instrument_each_route_is_drawn_once_by_the_router_spans(
    langchain_instrumented: tuple[TracerProvider, object],
) -> None:
    provider, exporter = langchain_instrumented
    tool = materials_tool(down=("mp_api",))
    with instrument(tool.router, tracer_provider=provider):
        await make_agent(tool).ainvoke(QUESTION)
    spans = list(exporter.get_finished_spans())  # type: ignore[attr-defined]
    (run,) = named(spans, "execute_tool materials")
    for route in ("mp_api.search", "mp_optimade.search"):
        (span,) = named(spans, route)  # not also a span of the LangChain child run
        assert span.parent is not None and span.parent.span_id == run.context.span_id
        assert (span.attributes or {}).get("schemarouter.provider") is not None


async def test_without_otel_instrument_openinference_draws_each_route_once_from_the_child_runs(
    langchain_instrumented: tuple[TracerProvider, object],
) -> None:
    _, exporter = langchain_instrumented
    tool = materials_tool(down=("mp_api",))
    await make_agent(tool).ainvoke(QUESTION)
    spans = list(exporter.get_finished_spans())  # type: ignore[attr-defined]
    (top,) = named(spans, "materials")
    for route in ("mp_api.search", "mp_optimade.search"):
        (span,) = named(spans, route)
        assert span.parent is not None and span.parent.span_id == top.context.span_id
        assert kind(span) == "TOOL"


@pytest.mark.parametrize("instrumented", [True, False], ids=["otel.instrument", "openinference only"])
async def test_an_all_down_run_makes_the_top_tool_span_an_error(
    langchain_instrumented: tuple[TracerProvider, object], instrumented: bool
) -> None:
    from opentelemetry.trace import StatusCode

    provider, exporter = langchain_instrumented
    tool = materials_tool(down=ALL_DOWN)
    if instrumented:
        with instrument(tool.router, tracer_provider=provider):
            message = await tool.ainvoke(tool_call())
    else:
        message = await tool.ainvoke(tool_call())
    assert message.status == "error"
    spans = list(exporter.get_finished_spans())  # type: ignore[attr-defined]
    (top,) = named(spans, "materials")
    assert top.parent is None and kind(top) == "TOOL"
    assert top.status.status_code is StatusCode.ERROR
    assert "AllRoutesUnavailableError" in (top.status.description or "")
    for route in ("mp_api.search", "oqmd_api.search"):
        (span,) = named(spans, route)
        assert span.status.status_code is StatusCode.ERROR
    if instrumented:
        (run,) = named(spans, "execute_tool materials")
        assert run.status.status_code is StatusCode.ERROR
