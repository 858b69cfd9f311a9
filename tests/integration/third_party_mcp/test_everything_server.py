"""npm ``@modelcontextprotocol/server-everything`` as a route: text-only tools answer
``{"text": ...}`` records and are chosen by their own words, declared fields refuse text,
``env=`` reaches the server process, and its resources are read-only endpoints."""

from __future__ import annotations

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter, SchemaValidationError

pytestmark = [pytest.mark.anyio, pytest.mark.integration, pytest.mark.timeout(300)]

STATIC_DOCUMENTS = {
    "architecture_md",
    "extension_md",
    "features_md",
    "how_it_works_md",
    "instructions_md",
    "startup_md",
    "structure_md",
}


async def test_a_text_only_tool_answers_one_text_record(everything_server: list[str]) -> None:
    async with SchemaRouter() as router:
        await router.add_mcp(everything_server, name="everything", read_only=["echo", "get-sum"])

        result = await router.invoke(PlanRequest(query="echo a message", arguments={"message": "hi"}))

    assert (result.endpoint, result.records) == ("echo", [{"text": "Echo: hi"}])


async def test_a_text_only_tool_is_chosen_by_its_own_words(everything_server: list[str]) -> None:
    async with SchemaRouter() as router:
        await router.add_mcp(everything_server, name="everything", read_only=["echo", "get-sum"])

        result = await router.invoke(PlanRequest(query="the sum of two numbers", arguments={"a": 2, "b": 3}))

    assert (result.endpoint, result.records) == ("get_sum", [{"text": "The sum of 2 and 3 is 5."}])


async def test_declared_fields_make_its_text_answer_a_schema_error(everything_server: list[str]) -> None:
    async with SchemaRouter() as router:
        await router.add_mcp(
            everything_server, name="everything", tools=["echo"], read_only=True, fields=["echoed"]
        )

        with pytest.raises(SchemaValidationError, match="not JSON"):
            await router.invoke(PlanRequest(query="echo a message", arguments={"message": "hi"}))


async def test_env_reaches_the_server_process_over_the_default_environment(
    everything_server: list[str],
) -> None:
    async with SchemaRouter() as router:
        await router.add_mcp(
            everything_server,
            name="everything",
            tools=["get-env"],
            read_only=True,
            env={"SCHEMAROUTER_PROBE": "set by add_mcp"},
        )

        result = await router.invoke(
            PlanRequest(query="environment variables", preferred_tools=["everything"])
        )

    assert result.endpoint == "get_env"
    (variables,) = result.records  # the tool answers the process environment as JSON text
    assert variables["SCHEMAROUTER_PROBE"] == "set by add_mcp"
    assert "PATH" in variables  # the SDK's default environment is kept beneath it


async def test_resources_register_as_read_only_endpoints(everything_server: list[str]) -> None:
    async with SchemaRouter() as router:
        spec = await router.add_mcp(everything_server, name="everything", tools=["echo"])

    resources = {e.name: e for e in spec.endpoints if e.description.startswith("MCP resource")}
    assert set(resources) == STATIC_DOCUMENTS | {"Dynamic_Text_Resource", "Dynamic_Blob_Resource"}
    assert all(e.read_only is True for e in resources.values())
    assert resources["Dynamic_Text_Resource"].input_schema["required"] == ["resourceId"]


async def test_a_static_resource_answers_its_text(everything_server: list[str]) -> None:
    async with SchemaRouter() as router:
        await router.add_mcp(everything_server, name="everything", tools=["echo"])

        result = await router.invoke(PlanRequest(query="architecture document"))

    assert result.endpoint == "architecture_md"
    (record,) = result.records
    assert record["uri"] == "demo://resource/static/document/architecture.md"
    assert record["mime_type"] == "text/markdown" and record["text"].strip()


async def test_a_resource_template_is_read_with_its_variables(everything_server: list[str]) -> None:
    async with SchemaRouter() as router:
        await router.add_mcp(everything_server, name="everything", tools=["echo"])

        result = await router.invoke(
            PlanRequest(query="dynamic text resource", arguments={"resourceId": "3"})
        )

    assert result.endpoint == "Dynamic_Text_Resource"
    (record,) = result.records
    assert record["uri"] == "demo://resource/dynamic/text/3" and "3" in record["text"]
