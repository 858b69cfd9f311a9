"""SchemaRouterToolSpec: one LlamaIndex FunctionTool over the router, and its outputs."""

from __future__ import annotations

from typing import Any

import pytest
from llama_index.core.tools import FunctionTool, ToolOutput
from llama_index.core.tools.tool_spec.base import BaseToolSpec

from schemarouter_integrations import (
    AllRoutesUnavailableError,
    BudgetExceededError,
    EndpointSpec,
    FieldSpec,
    NonRetryableInvocationError,
    RunBudget,
    SchemaRouter,
    ToolResult,
    ToolSpec,
)
from schemarouter_integrations.llamaindex import SchemaRouterToolSpec
from tests.support.seed import SEED_TOOLS, FakeInvoker, band_gap, endpoint, seed_router

ASK = {"query": "Si band gap", "formula": "Si"}


def tool_of(router: SchemaRouter, **settings: Any) -> FunctionTool:
    settings.setdefault("preferred_tools", ["mp_api"])
    tools = SchemaRouterToolSpec(router, **settings).to_tool_list()
    assert len(tools) == 1
    return tools[0]


# -- what the model sees --------------------------------------------------------------


def test_tool_spec_is_a_llamaindex_tool_spec(router: SchemaRouter) -> None:
    assert isinstance(SchemaRouterToolSpec(router), BaseToolSpec)


def test_to_tool_list_gives_one_function_tool_named_by_the_settings(router: SchemaRouter) -> None:
    assert tool_of(router).metadata.name == "schemarouter"
    named = tool_of(router, name="materials_lookup")
    assert isinstance(named, FunctionTool)
    assert named.metadata.name == "materials_lookup"


def test_fn_schema_shows_the_arguments_of_a_preferred_unclassified_tool() -> None:
    router = SchemaRouter()
    router.register(
        ToolSpec(name="mp_python", provider="mp", endpoints=[endpoint(fields=[band_gap()], read_only=None)]),
        FakeInvoker("mp_python"),
    )
    spec = SchemaRouterToolSpec(router, preferred_tools=["mp_python"])
    (tool,) = spec.to_tool_list()
    assert set(tool.metadata.get_parameters_dict()["properties"]) == {"query", "filters", "formula", "limit"}
    assert "band_gap" in tool.metadata.description


def test_fn_schema_is_query_plus_the_canonical_arguments(router: SchemaRouter) -> None:
    schema = tool_of(router).metadata.get_parameters_dict()
    assert set(schema["properties"]) == {"query", "filters", "formula", "limit"}
    assert schema["required"] == ["query"]


def test_model_sees_no_routing_setting(router: SchemaRouter) -> None:
    tool = tool_of(router, fallback_scope="cross_provider", budget=RunBudget(max_tool_calls=2))
    text = tool.metadata.fn_schema_str + tool.metadata.description
    for setting in ("fallback", "budget", "preferred", "max_fallbacks", "mp_api"):
        assert setting not in text


def test_description_is_generated_from_the_registry(router: SchemaRouter) -> None:
    description = tool_of(router).metadata.description
    assert "band_gap" in description
    assert "materials_project" in description and "oqmd" in description


def test_given_description_is_kept(router: SchemaRouter) -> None:
    assert tool_of(router, description="Band gaps only.").metadata.description == "Band gaps only."


def test_long_description_fits_openai_tool_limits(router: SchemaRouter) -> None:
    fields = [FieldSpec(name=f"property_{i}", aliases=[f"a rather long alias number {i}"]) for i in range(60)]
    router.register(
        ToolSpec(
            name="wide", provider="wide", endpoints=[EndpointSpec(name="all", read_only=True, fields=fields)]
        )
    )
    tool = tool_of(router)
    assert len(tool.metadata.description) <= 1024
    assert tool.metadata.to_openai_tool()["function"]["name"] == "schemarouter"


def test_issued_tool_follows_registry_changes(router: SchemaRouter) -> None:
    spec = SchemaRouterToolSpec(router)
    tool = spec.to_tool_list()[0]
    router.register(
        ToolSpec(
            name="aflow",
            provider="aflow",
            endpoints=[
                EndpointSpec(
                    name="search",
                    read_only=True,
                    input_schema={"type": "object", "properties": {"species": {"type": "string"}}},
                    fields=[FieldSpec(name="Egap", aliases=["band gap"])],
                )
            ],
        )
    )
    assert spec.refresh() is True
    assert "species" in tool.metadata.get_parameters_dict()["properties"]
    assert "aflow" in tool.metadata.description


# -- calls --------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_async_call_returns_the_tool_result_as_raw_output(router: SchemaRouter) -> None:
    output = await tool_of(router, fallback_scope="same_provider").acall(**ASK)
    assert isinstance(output, ToolOutput)
    assert not output.is_error
    assert isinstance(output.raw_output, ToolResult)
    assert output.raw_output.route == ["mp_api.search", "mp_optimade.search"]
    assert output.tool_name == "schemarouter"


@pytest.mark.anyio
async def test_content_tells_the_model_which_route_answered(router: SchemaRouter) -> None:
    output = await tool_of(router, fallback_scope="same_provider").acall(**ASK)
    assert "mp_optimade.search" in output.content
    assert "0.61" in output.content


def test_sync_call_works_outside_an_event_loop(router: SchemaRouter) -> None:
    output = tool_of(router, fallback_scope="same_provider").call(**ASK)
    assert output.raw_output.tool == "mp_optimade"


@pytest.mark.anyio
async def test_sync_call_works_inside_a_running_loop(router: SchemaRouter) -> None:
    output = tool_of(router, fallback_scope="same_provider").call(**ASK)
    assert output.raw_output.tool == "mp_optimade"


@pytest.mark.anyio
async def test_query_may_come_positionally(router: SchemaRouter) -> None:
    output = await tool_of(router, fallback_scope="same_provider").acall("Si band gap", formula="Si")
    assert output.raw_output.tool == "mp_optimade"


@pytest.mark.anyio
async def test_extra_positional_arguments_are_an_error_output(router: SchemaRouter) -> None:
    output = await tool_of(router).acall("Si band gap", "Si")
    assert output.is_error
    assert "positional" in output.content


@pytest.mark.anyio
async def test_canonical_arguments_reach_the_invoker() -> None:
    router, invokers = seed_router()
    await tool_of(router).acall(query="Si band gap", formula="Si", limit=2)
    assert invokers["mp_api"].calls[0].arguments == {"formula": "Si", "limit": 2}


@pytest.mark.anyio
async def test_arguments_the_model_left_empty_are_not_sent() -> None:
    router, invokers = seed_router()
    await tool_of(router).acall(query="Si band gap", formula="Si", limit=None)
    assert invokers["mp_api"].calls[0].arguments == {"formula": "Si"}


@pytest.mark.anyio
async def test_fallback_follows_the_application_setting_not_the_default(router: SchemaRouter) -> None:
    output = await tool_of(router).acall(**ASK)
    assert output.is_error
    assert isinstance(output.exception, AllRoutesUnavailableError)


# -- failures the model can act on ------------------------------------------------------


@pytest.mark.anyio
async def test_model_cannot_pass_routing_settings() -> None:
    router, invokers = seed_router()
    output = await tool_of(router).acall(**ASK, fallback_scope="cross_provider")
    assert output.is_error
    assert "fallback_scope" in output.content
    assert all(not invoker.calls for invoker in invokers.values())


@pytest.mark.anyio
async def test_missing_query_is_an_error_output(router: SchemaRouter) -> None:
    output = await tool_of(router).acall(formula="Si")
    assert output.is_error
    assert "query" in output.content


@pytest.mark.anyio
async def test_argument_of_the_wrong_type_is_an_error_output(router: SchemaRouter) -> None:
    output = await tool_of(router).acall(query="Si band gap", limit="many")
    assert output.is_error
    assert "limit" in output.content
    assert "many" not in output.content  # the input is not echoed


@pytest.mark.anyio
async def test_every_route_unavailable_is_an_error_output() -> None:
    router, _ = seed_router(down=tuple(make().name for make in SEED_TOOLS))
    output = await tool_of(router, fallback_scope="cross_provider").acall(**ASK)
    assert output.is_error
    assert "unavailable" in output.content
    assert "oqmd_api.search" in output.content


@pytest.mark.anyio
async def test_no_route_while_cooling_down_is_an_error_output(router: SchemaRouter) -> None:
    for make in SEED_TOOLS:
        router.mark_access_unavailable(make().name, "search", seconds=60)
    output = await tool_of(router).acall(**ASK)
    assert output.is_error
    assert "temporarily unavailable" in output.content


@pytest.mark.anyio
async def test_budget_exceeded_is_an_error_output(router: SchemaRouter) -> None:
    tool = tool_of(router, fallback_scope="same_provider", budget=RunBudget(max_tool_calls=1))
    output = await tool.acall(**ASK)
    assert output.is_error
    assert isinstance(output.exception, BudgetExceededError)
    assert "budget" in output.content


@pytest.mark.anyio
async def test_configuration_errors_propagate() -> None:
    router, _ = seed_router()
    router.bind("mp_api", FakeInvoker("mp_api", NonRetryableInvocationError("401 bad API key")))
    with pytest.raises(NonRetryableInvocationError):
        await tool_of(router, fallback_scope="same_provider").acall(**ASK)


@pytest.mark.anyio
async def test_invoker_bugs_propagate() -> None:
    router, _ = seed_router()
    router.bind("mp_api", FakeInvoker("mp_api", KeyError("records")))
    with pytest.raises(NonRetryableInvocationError, match="KeyError"):
        await tool_of(router).acall(**ASK)


def test_invalid_settings_are_refused_at_construction(router: SchemaRouter) -> None:
    with pytest.raises(ValueError):
        SchemaRouterToolSpec(router, max_fallbacks=99)
