"""SchemaRouterTool: what the model sees, what it gets back, and which errors it reads."""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.messages import ToolMessage

from schemarouter_integrations import (
    EndpointSpec,
    FieldSpec,
    NonRetryableInvocationError,
    RunBudget,
    SchemaRouter,
    ToolResult,
    ToolSpec,
)
from schemarouter_integrations.langchain import SchemaRouterTool
from tests.support.langchain import materials_tool, tool_call
from tests.support.seed import FakeInvoker, band_gap, endpoint, formula, oqmd_api, seed_router

SETTINGS = ("fallback_scope", "max_fallbacks", "preferred_tools", "budget", "fields", "health")


def schema_of(tool: SchemaRouterTool) -> dict[str, Any]:
    schema = tool.tool_call_schema
    assert not isinstance(schema, dict)
    return schema.model_json_schema()


# -- what the model sees -------------------------------------------------------------------
def test_model_arguments_are_query_plus_canonical_endpoint_arguments() -> None:
    schema = schema_of(materials_tool())
    assert set(schema["properties"]) == {"query", "filters", "formula", "limit"}
    assert schema["required"] == ["query"]


def unclassified_python_tool(**options: Any) -> SchemaRouterTool:
    """A router whose only tool is unclassified (read_only unset), as add_callable leaves it."""
    router = SchemaRouter()
    router.register(
        ToolSpec(name="mp_python", provider="mp", endpoints=[endpoint(fields=[band_gap()], read_only=None)]),
        FakeInvoker("mp_python"),
    )
    return SchemaRouterTool(router=router, name="materials", **options)


def test_a_preferred_unclassified_tool_is_described_and_its_arguments_shown() -> None:
    tool = unclassified_python_tool(preferred_tools=["mp_python"])
    assert set(schema_of(tool)["properties"]) == {"query", "filters", "formula", "limit"}
    assert "band_gap" in tool.description


def test_changing_the_preferred_tools_changes_what_the_model_sees() -> None:
    tool = unclassified_python_tool(preferred_tools=["mp_python"])
    tool.preferred_tools = ()
    assert set(schema_of(tool)["properties"]) == {"query"}
    assert "No data source" in tool.description


def test_a_preferred_unclassified_tool_is_hidden_when_fallback_is_automatic() -> None:
    tool = unclassified_python_tool(preferred_tools=["mp_python"], fallback_scope="same_provider")
    assert set(schema_of(tool)["properties"]) == {"query"}


def test_model_cannot_see_scope_budget_preferred_tools_or_health() -> None:
    tool = materials_tool(budget=RunBudget(max_tool_calls=2), preferred_tools=["mp_api"])
    visible = json.dumps(schema_of(tool)) + tool.description
    for setting in SETTINGS:
        assert setting not in visible


def test_model_cannot_set_scope_through_extra_arguments() -> None:
    router, invokers = seed_router(down=("mp_api",))
    tool = SchemaRouterTool(router=router, name="materials", fallback_scope="disabled")
    message = tool.invoke(tool_call({"query": "band gap of Si", "fallback_scope": "cross_provider"}))
    assert message.status == "error"
    assert "fallback_scope" in message.content
    assert all(not inv.calls for inv in invokers.values())


def test_canonical_arguments_are_typed_from_their_json_schema() -> None:
    properties = schema_of(materials_tool())["properties"]
    assert {"type": "integer", "minimum": 1} in properties["limit"]["anyOf"]
    assert {"type": "string"} in properties["formula"]["anyOf"]
    assert properties["formula"]["default"] is None


def test_argument_descriptions_come_from_the_endpoint_schema() -> None:
    router, _ = seed_router()
    described = {
        "type": "object",
        "properties": {
            "elements": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Elements that must all occur",
            }
        },
    }
    router.register(
        ToolSpec(
            name="alex",
            provider="alexandria",
            endpoints=[endpoint(fields=[band_gap()], input_schema=described)],
        ),
        FakeInvoker("oqmd_api"),
    )
    properties = schema_of(SchemaRouterTool(router=router))["properties"]
    assert properties["elements"]["description"].startswith("Elements that must all occur.")
    assert {"type": "array", "items": {"type": "string"}} in properties["elements"]["anyOf"]


def test_arguments_of_endpoints_that_are_not_read_only_stay_hidden() -> None:
    router, _ = seed_router()
    mutating = {"type": "object", "properties": {"new_record": {"type": "object"}}}
    router.register(
        ToolSpec(
            name="writer",
            provider="materials_project",
            endpoints=[endpoint("create", fields=[band_gap()], read_only=False, input_schema=mutating)],
        )
    )
    assert "new_record" not in schema_of(SchemaRouterTool(router=router))["properties"]


def test_argument_schema_is_rebuilt_when_the_registry_changes() -> None:
    tool = materials_tool()
    assert "elements" not in schema_of(tool)["properties"]
    tool.router.register(
        ToolSpec(
            name="alex",
            provider="alexandria",
            endpoints=[
                endpoint(
                    fields=[
                        band_gap("_alexandria_band_gap"),
                        FieldSpec(name="hull_distance", aliases=["stability"]),
                    ],
                    input_schema={"type": "object", "properties": {"elements": {"type": "array"}}},
                )
            ],
        )
    )
    assert "elements" in schema_of(tool)["properties"]
    assert "hull_distance (aka stability)" in tool.description


def test_description_names_fields_with_aliases_and_providers() -> None:
    description = materials_tool().description
    assert "band_gap (aka bandgap, gap)" in description
    assert "bulk_modulus (aka bulk modulus, K_VRH)" in description
    assert "materials_project, oqmd" in description


def test_an_application_description_is_kept_across_registry_changes() -> None:
    tool = materials_tool(description="Materials data for the lab.")
    tool.router.register(oqmd_api(), FakeInvoker("oqmd_api"))
    tool.refresh()
    assert tool.description == "Materials data for the lab."


# -- what the model gets back --------------------------------------------------------------
def test_content_names_records_route_and_fallback_and_artifact_is_the_result() -> None:
    message = materials_tool(down=("mp_api",)).invoke(tool_call({"query": "band gap of Si", "formula": "Si"}))
    assert isinstance(message, ToolMessage)
    assert isinstance(message.artifact, ToolResult)
    assert message.artifact.access_path == "mp_optimade.search"
    assert message.content.splitlines() == [
        "Answered by mp_optimade.search (materials_project, optimade).",
        "Fallbacks taken: 1 (mp_api.search -> mp_optimade.search (unavailable)).",
        "Records (1):",
        '{"band_gap": 0.61}',
    ]


def test_canonical_arguments_reach_every_call_of_the_chain() -> None:
    router, invokers = seed_router(down=("mp_api",))
    SchemaRouterTool(router=router, fallback_scope="same_provider").invoke(
        {"query": "band gap", "formula": "Si", "limit": 2}
    )
    assert invokers["mp_api"].calls[0].arguments == {"formula": "Si", "limit": 2}
    assert invokers["mp_optimade"].calls[0].arguments == {"formula": "Si", "limit": 2}


def test_content_caps_records_shown_to_the_model() -> None:
    router, _ = seed_router()
    many = {"data": [{"band_gap": float(i)} for i in range(30)]}
    router.bind("mp_api", lambda call: _returning(many))
    message = SchemaRouterTool(router=router, max_records=3).invoke(tool_call({"query": "band gap"}))
    assert message.content.endswith("... 27 more record(s) not shown.")
    assert len(message.artifact.records) == 30


async def _returning(value: Any) -> Any:
    return value


@pytest.mark.anyio
async def test_async_invoke_falls_back_and_returns_the_result() -> None:
    tool = materials_tool(down=("mp_api", "mp_optimade"))
    message = await tool.ainvoke(tool_call({"query": "Si band gap"}))
    assert message.artifact.route == ["mp_api.search", "mp_optimade.search", "mp_python.search"]


@pytest.mark.anyio
async def test_sync_invoke_works_inside_a_running_event_loop() -> None:
    message = materials_tool(down=("mp_api",)).invoke(tool_call({"query": "Si band gap"}))
    assert message.artifact.access_path == "mp_optimade.search"


# -- errors --------------------------------------------------------------------------------
def test_no_route_is_a_tool_error_message_the_model_can_act_on() -> None:
    message = materials_tool(fields=["melting_point"]).invoke(tool_call({"query": "melting point of Si"}))
    assert message.status == "error"
    assert message.content.startswith("No data source can answer this request right now")
    assert "Traceback" not in message.content


def test_all_routes_unavailable_is_a_tool_error_message() -> None:
    tool = materials_tool(down=("mp_api", "mp_optimade", "mp_python", "oqmd_api"))
    message = tool.invoke(tool_call({"query": "band gap of Si"}))
    assert message.status == "error"
    assert message.content.startswith("Every data source that could answer was unavailable")
    assert "mp_api.search, mp_optimade.search, mp_python.search, oqmd_api.search" in message.content


def test_budget_exceeded_is_a_tool_error_message() -> None:
    tool = materials_tool(down=("mp_api",), budget=RunBudget(max_tool_calls=1))
    message = tool.invoke(tool_call({"query": "band gap of Si"}))
    assert message.status == "error"
    assert "budget is used up" in message.content


def test_invalid_response_is_a_tool_error_message() -> None:
    router, _ = seed_router()
    strict = {"type": "object", "required": ["never_sent"]}
    router.register(
        ToolSpec(
            name="mp_api",
            provider="materials_project",
            endpoints=[
                EndpointSpec(
                    name="search",
                    read_only=True,
                    fields=[band_gap(), formula("formula_pretty")],
                    output_schema=strict,
                    records_path=["data"],
                )
            ],
        ),
        FakeInvoker("mp_api"),
    )
    message = SchemaRouterTool(router=router, preferred_tools=["mp_api"]).invoke(
        tool_call({"query": "band gap"})
    )
    assert message.status == "error"
    assert message.content.startswith("The request was rejected by a schema check")


def test_argument_of_the_wrong_type_is_a_tool_error_message() -> None:
    message = materials_tool().invoke(tool_call({"query": "band gap", "limit": "many"}))
    assert message.status == "error"
    assert message.content.startswith("Invalid tool arguments: limit:")


def test_argument_out_of_its_schema_bounds_is_rejected_before_any_route_runs() -> None:
    router, invokers = seed_router()
    message = SchemaRouterTool(router=router).invoke(tool_call({"query": "band gap", "limit": 0}))
    assert message.status == "error"
    assert "greater than or equal to 1" in message.content
    assert all(not inv.calls for inv in invokers.values())


def test_programming_errors_in_an_invoker_propagate() -> None:
    router, _ = seed_router()

    async def broken(call: Any) -> Any:
        raise KeyError("bug in the application's invoker")

    for name in ("mp_api", "mp_optimade", "mp_python", "oqmd_api"):
        router.bind(name, broken)
    with pytest.raises(NonRetryableInvocationError, match="KeyError"):
        SchemaRouterTool(router=router).invoke(tool_call({"query": "band gap"}))


def test_a_copy_with_other_settings_routes_with_those_settings() -> None:
    tool = SchemaRouterTool(router=seed_router()[0], name="materials", max_fallbacks=3)
    assert tool.options.max_fallbacks == 3
    copied = tool.model_copy(update={"max_fallbacks": 0})
    assert copied.options.max_fallbacks == 0
    assert tool.options.max_fallbacks == 3
