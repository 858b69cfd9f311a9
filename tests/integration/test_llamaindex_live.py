"""A LlamaIndex agent over real loopback APIs: the MP-like REST API fails, OPTIMADE answers."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from llama_index.core.agent.workflow import FunctionAgent

from schemarouter_integrations import NonRetryableInvocationError, SchemaRouter, ToolResult
from schemarouter_integrations.llamaindex import SchemaRouterToolSpec, ToolErrorEvent, ToolFallbackEvent
from tests.servers.materials_api import MaterialsApiServer
from tests.servers.optimade_server import OptimadeServer
from tests.support.llamaindex import CapturingHandler, function_calling_llm

pytestmark = [pytest.mark.integration, pytest.mark.anyio]

ASK = {"query": "band gap of Si", "formula": "Si"}


@asynccontextmanager
async def live_router(materials: MaterialsApiServer, optimade: OptimadeServer) -> AsyncIterator[SchemaRouter]:
    """Materials Project's native API (OpenAPI) and the OQMD double (OPTIMADE), both real HTTP."""
    async with SchemaRouter() as router:
        await router.add_url(
            materials.openapi_url,
            kind="openapi",
            name="mp_api",
            provider="materials_project",
            access_mode="openapi",
        )
        await router.add_url(
            optimade.url, kind="optimade", name="oqmd_optimade", provider="oqmd", access_mode="optimade"
        )
        yield router


def spec_of(router: SchemaRouter) -> SchemaRouterToolSpec:
    return SchemaRouterToolSpec(
        router, name="materials_lookup", fallback_scope="cross_provider", preferred_tools=["mp_api"]
    )


async def test_agent_answers_from_optimade_while_the_rest_api_returns_503(
    materials_api: MaterialsApiServer, optimade_server: OptimadeServer, captured: CapturingHandler
) -> None:
    materials_api.faults.always("503")
    async with live_router(materials_api, optimade_server) as router:
        agent = FunctionAgent(
            tools=spec_of(router).to_tool_list(), llm=function_calling_llm("materials_lookup", ASK)
        )
        answer = await agent.run("What is the band gap of Si?")
    result = answer.tool_calls[0].tool_output.raw_output
    assert isinstance(result, ToolResult)
    assert result.access_path == "oqmd_optimade.search_structures"
    assert result.records[0]["band_gap"] == pytest.approx(0.615, abs=0.01)
    assert "0.61" in str(answer.response.content)
    assert ("503", "/materials/summary/") in materials_api.faults.served
    [fallback] = captured.of(ToolFallbackEvent)
    assert (fallback.from_tool, fallback.to_tool) == ("mp_api", "oqmd_optimade")
    assert (fallback.scope, fallback.same_provider) == ("cross_provider", False)
    [error] = captured.of(ToolErrorEvent)
    assert error.tool == "mp_api" and error.retryable


async def test_rest_api_answers_when_healthy(
    materials_api: MaterialsApiServer, optimade_server: OptimadeServer, captured: CapturingHandler
) -> None:
    async with live_router(materials_api, optimade_server) as router:
        output = await spec_of(router).to_tool_list()[0].acall(**ASK)
    assert output.raw_output.access_path == "mp_api.search"
    assert output.raw_output.records[0]["band_gap"] == pytest.approx(0.61, abs=0.01)
    assert captured.of(ToolFallbackEvent) == []


async def test_rejected_api_key_reaches_the_application(
    materials_api: MaterialsApiServer, optimade_server: OptimadeServer
) -> None:
    materials_api.api_key = "expected-key"
    async with live_router(materials_api, optimade_server) as router:
        with pytest.raises(NonRetryableInvocationError):
            await spec_of(router).to_tool_list()[0].acall(**ASK)
