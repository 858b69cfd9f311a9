"""Hedging where users meet it: framework tools take ``hedge=``, the model reads that a hedge
answered, traces show ``tool.hedge``, landscape files say ``[tool.hedge]``."""

from __future__ import annotations

import pytest
from langchain_core.messages import ToolMessage
from mcp import Client

from schemarouter_integrations import HedgePolicy, RouterEvent
from schemarouter_integrations.config import parse_config
from schemarouter_integrations.events import ToolHedgeEvent
from schemarouter_integrations.langchain import SchemaRouterTool
from schemarouter_integrations.llamaindex import SchemaRouterToolSpec
from schemarouter_integrations.llamaindex import ToolHedgeEvent as LlamaToolHedgeEvent
from schemarouter_integrations.mcp import router_mcp_server
from schemarouter_integrations.otel import DEFAULT_TOOL_NAME
from tests.support.hedging import HEDGE, Gated, hedge_request, hedge_router
from tests.support.langchain import tool_call
from tests.support.otel import event_names, recording

pytestmark = pytest.mark.anyio


async def test_the_langchain_tool_hedges_and_tells_the_model_which_route_answered() -> None:
    a = Gated(1.0)
    router = hedge_router({"a_api": a, "b_api": Gated(2.0, gated=False)})
    tool = SchemaRouterTool(
        router=router, fallback_scope="same_provider", preferred_tools=["a_api"], hedge=HEDGE
    )
    assert tool.options.hedge == HEDGE
    assert "hedge" not in tool.tool_call_schema.model_json_schema()["properties"]
    message = await tool.ainvoke(tool_call({"query": "band gap"}))
    assert isinstance(message, ToolMessage)
    assert message.artifact.tool == "b_api"
    assert message.content.splitlines()[:2] == [
        "Answered by b_api.search (mp, openapi).",
        "Hedged: b_api.search started after a_api.search gave no answer in 0.02 s.",
    ]
    a.gate.set()
    await router.aclose()


async def test_the_llamaindex_tool_spec_hedges() -> None:
    a = Gated(1.0)
    router = hedge_router({"a_api": a, "b_api": Gated(2.0, gated=False)})
    spec = SchemaRouterToolSpec(
        router, fallback_scope="same_provider", preferred_tools=["a_api"], hedge=HEDGE
    )
    (tool,) = spec.to_tool_list()
    output = await tool.acall(query="band gap")
    assert not output.is_error
    assert output.raw_output.tool == "b_api"
    assert any(isinstance(e, ToolHedgeEvent) for e in output.raw_output.events)
    assert LlamaToolHedgeEvent.class_name() == "ToolHedgeEvent"
    a.gate.set()
    await router.aclose()


async def test_the_mcp_server_hedges_for_its_clients() -> None:
    a = Gated(1.0)
    router = hedge_router({"a_api": a, "b_api": Gated(2.0, gated=False)})
    server = router_mcp_server(router, fallback_scope="same_provider", preferred_tools=["a_api"], hedge=HEDGE)
    async with Client(server) as client:
        (listed,) = (await client.list_tools()).tools
        assert "hedge" not in listed.input_schema["properties"]
        result = await client.call_tool("data_lookup", {"query": "band gap"})
    assert not result.is_error
    assert result.structured_content is not None
    assert result.structured_content["answered_by"] == "b_api.search"
    a.gate.set()
    await router.aclose()


async def test_a_hedge_is_a_run_span_event_and_the_outrun_route_span_is_not_an_error() -> None:
    a = Gated(1.0)
    router = hedge_router({"a_api": a, "b_api": Gated(2.0, gated=False)})
    with recording(router) as rec:
        await router.invoke(hedge_request())
    run = rec.one(f"execute_tool {DEFAULT_TOOL_NAME}")
    assert event_names(run) == ["tool.hedge"]
    hedge = run.events[0].attributes or {}
    assert (hedge["from_tool"], hedge["to_tool"], hedge["after_seconds"]) == ("a_api", "b_api", 0.02)
    outrun, answered = rec.children_of(run)
    assert (outrun.name, answered.name) == ("a_api.search", "b_api.search")
    assert outrun.attributes is not None and outrun.attributes["schemarouter.outrun_by_hedge"] is True
    assert "error.type" not in outrun.attributes
    assert run.status.is_ok or run.status.status_code.name == "UNSET"
    a.gate.set()
    await router.aclose()


def test_a_landscape_file_sets_the_hedge_of_the_tool() -> None:
    config = parse_config('[tool]\nscope = "same_provider"\nhedge = { after_seconds = 0.2 }\n')
    assert config.tool.hedge == HedgePolicy(0.2)
    assert config.tool.request("band gap").hedge == HedgePolicy(0.2, max_extra_fraction=0.1)
    assert config.tool.framework_options()["hedge"] == HedgePolicy(0.2)


def test_a_hedge_event_round_trips_through_json() -> None:
    from pydantic import TypeAdapter

    from schemarouter_integrations.events import AnyRouterEvent

    event = ToolHedgeEvent(from_tool="a", from_endpoint="s", to_tool="b", to_endpoint="s", after_seconds=0.5)
    adapter: TypeAdapter[RouterEvent] = TypeAdapter(AnyRouterEvent)
    assert adapter.validate_json(adapter.dump_json(event)) == event
