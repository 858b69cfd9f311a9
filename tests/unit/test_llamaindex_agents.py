"""LlamaIndex agents and workflows answer through the router while its primary route is down."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest
from llama_index.core.agent.workflow import FunctionAgent, ReActAgent
from llama_index.core.tools import FunctionTool, ToolOutput
from llama_index.core.workflow import StartEvent, StopEvent, Workflow, step

from schemarouter_integrations import SchemaRouter, ToolResult
from schemarouter_integrations.llamaindex import SchemaRouterEvent, SchemaRouterToolSpec, ToolFallbackEvent
from tests.support.llamaindex import (
    QUESTION,
    TOOL_ARGUMENTS,
    CapturingHandler,
    function_calling_llm,
    react_llm,
)
from tests.support.seed import seed_router

pytestmark = pytest.mark.anyio


@pytest.fixture
def tools(router: SchemaRouter) -> list[FunctionTool]:
    spec = SchemaRouterToolSpec(
        router, name="materials_lookup", fallback_scope="same_provider", preferred_tools=["mp_api"]
    )
    return spec.to_tool_list()


def assert_fell_back_to_optimade(captured: CapturingHandler) -> None:
    [fallback] = captured.of(ToolFallbackEvent)
    assert (fallback.from_tool, fallback.to_tool) == ("mp_api", "mp_optimade")
    assert (fallback.from_access_mode, fallback.to_access_mode) == ("openapi", "optimade")
    assert fallback.scope == "same_provider"
    assert fallback.span_id is not None


async def test_function_agent_answers_with_the_primary_down(
    tools: list[FunctionTool], captured: CapturingHandler
) -> None:
    agent = FunctionAgent(tools=tools, llm=function_calling_llm("materials_lookup"))
    answer = await agent.run(QUESTION)
    assert "0.61" in str(answer.response.content)
    [call] = answer.tool_calls
    assert isinstance(call.tool_output.raw_output, ToolResult)
    assert call.tool_output.raw_output.tool == "mp_optimade"
    assert_fell_back_to_optimade(captured)


async def test_react_agent_answers_with_the_primary_down(
    tools: list[FunctionTool], captured: CapturingHandler
) -> None:
    agent = ReActAgent(tools=tools, llm=react_llm("materials_lookup"))
    answer = await agent.run(QUESTION)
    assert "mp_optimade.search" in str(answer.response.content)
    assert answer.tool_calls[0].tool_output.raw_output.route == ["mp_api.search", "mp_optimade.search"]
    assert_fell_back_to_optimade(captured)


async def test_function_agent_reads_a_routing_failure_as_a_tool_error(captured: CapturingHandler) -> None:
    router, _ = seed_router(down=("mp_api",))
    tools = SchemaRouterToolSpec(router, name="materials_lookup").to_tool_list()  # fallback disabled
    answer = await FunctionAgent(tools=tools, llm=function_calling_llm("materials_lookup")).run(QUESTION)
    [call] = answer.tool_calls
    assert call.tool_output.is_error
    assert "unavailable" in str(answer.response.content)
    assert captured.of(ToolFallbackEvent) == []


class LookupWorkflow(Workflow):
    """One step that asks the router tool directly."""

    def __init__(self, tool: FunctionTool) -> None:
        super().__init__(timeout=30)
        self.tool = tool

    @step
    async def look_up(self, ev: StartEvent) -> StopEvent:
        output = await self.tool.acall(query=ev.query, formula=ev.formula)
        return StopEvent(result=output)


async def test_workflow_step_answers_with_the_primary_down(
    tools: list[FunctionTool], captured: CapturingHandler
) -> None:
    output = await LookupWorkflow(tools[0]).run(**TOOL_ARGUMENTS)
    assert isinstance(output, ToolOutput)
    assert output.raw_output.access_path == "mp_optimade.search"
    assert_fell_back_to_optimade(captured)
    assert len({e.run_id for e in captured.of(SchemaRouterEvent)}) == 1


async def test_cookbook_agent_runs_offline(capsys: pytest.CaptureFixture[str]) -> None:
    cookbook = runpy.run_path(str(Path(__file__).parents[2] / "cookbook" / "llamaindex_agent.py"))
    await cookbook["main"]()
    printed = capsys.readouterr().out
    assert "[fallback] mp_api.search -> mp_optimade.search" in printed
    assert "Answered by mp_optimade.search" in printed
