"""SchemaRouterTool through other frameworks' LangChain bridges, called the way each calls it:

* smolagents' ``Tool.from_langchain`` shows ``tool.args`` as its inputs (each needs a plain
  ``type``) and calls ``tool.run(arguments)``;
* google-adk's ``LangchainTool`` wraps ``tool._run`` and passes it only the parameters its
  signature names (``run_manager`` left out), then checks the ones without a default, and
  sends what it returns to the model;
* crewai's ``Tool.from_langchain`` needs a callable ``tool.func``, validates the arguments
  with ``tool.args_schema`` and calls ``tool.func(**arguments)``.
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from schemarouter_integrations import ToolSpec
from schemarouter_integrations.langchain import SchemaRouterTool
from tests.support.langchain import materials_tool
from tests.support.seed import FakeInvoker, band_gap, endpoint, seed_router

SMOLAGENTS_TYPES = {
    "string",
    "boolean",
    "integer",
    "number",
    "image",
    "audio",
    "array",
    "object",
    "any",
    "null",
}
ALL_DOWN = ("mp_api", "mp_optimade", "mp_python", "oqmd_api")


def tool_with_an_array_argument() -> SchemaRouterTool:
    router, _ = seed_router()
    elements = {"type": "object", "properties": {"elements": {"type": "array", "items": {"type": "string"}}}}
    router.register(
        ToolSpec(
            name="alex",
            provider="alexandria",
            endpoints=[endpoint(fields=[band_gap()], input_schema=elements)],
        ),
        FakeInvoker("oqmd_api"),
    )
    return SchemaRouterTool(router=router)


def adk_call(tool: SchemaRouterTool, args: dict[str, Any]) -> Any:
    """What google-adk's ``FunctionTool.run_async`` does with ``tool._run``."""
    parameters = inspect.signature(tool._run).parameters
    passed = {name: value for name, value in args.items() if name in parameters}
    mandatory = [
        name
        for name, p in parameters.items()
        if p.default is inspect.Parameter.empty
        and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)
        and name != "run_manager"
    ]
    missing = [name for name in mandatory if name not in passed]
    assert not missing, missing
    return tool._run(**passed)


def crewai_call(tool: SchemaRouterTool, args: dict[str, Any]) -> Any:
    """What crewai's ``Tool.from_langchain(tool).run(**args)`` does."""
    assert callable(tool.func)
    validated = tool.args_schema.model_validate(args).model_dump()  # type: ignore[union-attr]
    return tool.func(**validated)


# -- the argument schema -------------------------------------------------------------
def test_every_argument_property_has_a_plain_type_as_smolagents_requires() -> None:
    properties = materials_tool().args
    assert {name: node.get("type") for name, node in properties.items()} == {
        "query": "string",
        "formula": "string",
        "limit": "integer",
        "filters": "object",
    }
    assert all("anyOf" not in node for node in properties.values())
    assert properties["limit"]["minimum"] == 1 and properties["formula"]["default"] is None


def test_an_array_argument_is_shown_as_an_array() -> None:
    properties = tool_with_an_array_argument().args
    assert properties["elements"]["type"] == "array"
    assert properties["elements"]["items"] == {"type": "string"}
    assert all(node["type"] in SMOLAGENTS_TYPES for node in properties.values())


def test_the_arguments_model_schema_crewai_reads_has_plain_types_too() -> None:
    tool = tool_with_an_array_argument()
    schema = tool.args_schema.model_json_schema()  # type: ignore[union-attr]
    assert {name: node["type"] for name, node in schema["properties"].items()} == {
        "query": "string",
        "formula": "string",
        "limit": "integer",
        "elements": "array",
        "filters": "object",
    }


def test_smolagents_runs_the_tool_with_a_dict_and_gets_text() -> None:
    content = materials_tool().run({"query": "band gap of Si", "formula": "Si"})
    assert isinstance(content, str) and "Answered by mp_api.search" in content


# -- google-adk: tool._run with the parameters its signature names ----------------------
def test_run_names_query_and_every_model_facing_argument_in_its_signature() -> None:
    parameters = inspect.signature(tool_with_an_array_argument()._run).parameters
    assert {"query", "formula", "limit", "elements", "run_manager"} <= set(parameters)
    assert parameters["query"].default is inspect.Parameter.empty
    assert parameters["formula"].default is None
    arun = inspect.signature(materials_tool()._arun).parameters
    assert {"query", "formula", "limit", "run_manager"} <= set(arun)


def test_google_adk_passes_the_model_arguments_through_to_the_route() -> None:
    router, invokers = seed_router()
    tool = SchemaRouterTool(router=router)
    content = adk_call(tool, {"query": "band gap of Si", "formula": "Si", "unrelated": 1})
    assert content.startswith("Answered by mp_api.search")
    (call,) = invokers["mp_api"].calls
    assert call.arguments["formula"] == "Si"


def test_google_adk_gets_the_models_text_alone_never_the_artifact() -> None:
    # google-adk sends whatever ``_run`` returns to the model as the function response
    output = adk_call(materials_tool(), {"query": "band gap of Si", "formula": "Si"})
    assert isinstance(output, str) and "plan" not in output and "attempts" not in output


def test_google_adk_gets_the_fallback() -> None:
    content = adk_call(materials_tool(down=("mp_api",)), {"query": "band gap of Si", "formula": "Si"})
    assert content.startswith("Answered by mp_optimade.search")
    assert "mp_api.search -> mp_optimade.search" in content


def test_google_adk_gets_an_error_result_when_every_route_is_down_not_an_exception() -> None:
    output = adk_call(materials_tool(down=ALL_DOWN), {"query": "band gap of Si", "formula": "Si"})
    assert set(output) == {"error"}
    assert output["error"].startswith("Every data source that could answer was unavailable")


def test_google_adk_bad_arguments_are_an_error_result_for_the_model() -> None:
    output = adk_call(materials_tool(), {"query": "band gap of Si", "limit": 0})
    assert output["error"].startswith("Invalid tool arguments: limit")


@pytest.mark.anyio
async def test_arun_called_as_a_plain_coroutine_function_answers_with_the_text() -> None:
    content = await materials_tool()._arun(query="band gap of Si", formula="Si")
    assert content.startswith("Answered by mp_api.search")


@pytest.mark.anyio
async def test_arun_called_as_a_plain_coroutine_function_fails_as_an_error_result() -> None:
    output = await materials_tool(down=ALL_DOWN)._arun(query="band gap of Si")
    assert output["error"].startswith("Every data source that could answer was unavailable")


def test_the_arguments_model_is_named_for_the_tool_not_after_its_last_argument() -> None:
    # crewai quotes the model's name in its validation errors ("1 validation error for ...")
    model = materials_tool().args_schema
    assert model.__name__ == "SchemaRouterArguments"  # type: ignore[union-attr]
    assert model.model_json_schema()["title"] == "SchemaRouterArguments"  # type: ignore[union-attr]


# -- crewai: tool.func --------------------------------------------------------------------
def test_crewai_calls_func_with_the_validated_arguments_and_gets_text() -> None:
    router, invokers = seed_router()
    text = crewai_call(SchemaRouterTool(router=router), {"query": "band gap of Si", "formula": "Si"})
    assert isinstance(text, str) and "Answered by mp_api.search" in text
    assert invokers["mp_api"].calls[0].arguments["formula"] == "Si"


def test_crewai_gets_the_fallback_and_the_all_down_message_as_text() -> None:
    assert "mp_optimade.search" in crewai_call(materials_tool(down=("mp_api",)), {"query": "band gap of Si"})
    down = crewai_call(materials_tool(down=ALL_DOWN), {"query": "band gap of Si"})
    assert down.startswith("Every data source that could answer was unavailable")


def test_func_names_the_model_facing_arguments_without_run_manager() -> None:
    parameters = inspect.signature(materials_tool().func).parameters
    assert {"query", "formula", "limit"} <= set(parameters) and "run_manager" not in parameters
