"""What the tools and resources of an MCP server nobody described for the router answer: text
becomes a ``{"text": ...}`` record, a records array inside one object answers those records,
resources are read-only endpoints. In-process servers; the real third-party servers are in
``tests/integration/third_party_mcp/``."""

from __future__ import annotations

import json

import pytest
from mcp.server import MCPServer

from schemarouter_integrations import PlanRequest, SchemaRouter, SchemaValidationError
from schemarouter_integrations.errors import RegistrationError

pytestmark = [pytest.mark.anyio, pytest.mark.integration]


def _notes_server() -> MCPServer:
    server = MCPServer("notes")

    @server.tool(structured_output=False)
    def summarize_note(title: str) -> str:
        """Summarize one note of the notebook in a sentence."""
        return f"The note {title} is about silicon."

    @server.tool(structured_output=False)
    def list_notes(tag: str) -> str:
        """List the notes that carry a tag."""
        notes = [{"title": "Si", "tag": tag}, {"title": "GaAs", "tag": tag}]
        return json.dumps({"total": 2, "notes": notes})

    @server.resource(
        "notes://index", name="note-index", mime_type="application/json", description="Every note"
    )
    def index() -> str:
        return json.dumps({"count": 1, "items": [{"title": "Si"}]})

    @server.resource("notes://by-title/{title}", name="note by title", description="One note's text")
    def by_title(title: str) -> str:
        return f"# {title}\nA semiconductor."

    return server


async def _router(**options: object) -> SchemaRouter:
    router = SchemaRouter()
    settings: dict[str, object] = {"read_only": True, **options}
    await router.add_mcp(_notes_server(), name="notes", **settings)  # type: ignore[arg-type]
    return router


async def test_a_text_answer_of_a_tool_without_fields_is_one_text_record() -> None:
    router = await _router()

    result = await router.invoke(PlanRequest(query="summarize a note", arguments={"title": "Si"}))

    assert result.endpoint == "summarize_note"
    assert result.records == [{"text": "The note Si is about silicon."}]


async def test_declared_fields_make_a_text_answer_a_schema_error() -> None:
    router = await _router(tools=["summarize_note"], fields=["summary"])

    with pytest.raises(SchemaValidationError, match="not JSON") as raised:
        await router.invoke(PlanRequest(query="summarize a note", arguments={"title": "Si"}))
    assert raised.value.subject == "response"


async def test_a_records_array_inside_one_object_answer_is_the_records() -> None:
    router = await _router()

    result = await router.invoke(PlanRequest(query="list notes with a tag", arguments={"tag": "chem"}))

    assert result.endpoint == "list_notes"
    assert result.records == [{"title": "Si", "tag": "chem"}, {"title": "GaAs", "tag": "chem"}]


async def test_resources_register_as_read_only_endpoints() -> None:
    router = await _router(tools=["list_notes"], read_only=None)

    endpoints = {e.name: e for e in router.registry.tool("notes").endpoints}  # type: ignore[union-attr]

    assert set(endpoints) == {"list_notes", "note_index", "note_by_title"}
    assert endpoints["list_notes"].read_only is None  # the application's word, as before
    assert endpoints["note_index"].read_only is True
    assert endpoints["note_by_title"].read_only is True
    assert endpoints["note_by_title"].input_schema["required"] == ["title"]
    assert "notes://index (application/json): Every note" in endpoints["note_index"].description


async def test_a_json_resource_answers_its_records() -> None:
    router = await _router()

    result = await router.invoke(PlanRequest(query="note index", preferred_tools=["notes"]))

    assert result.endpoint == "note_index"
    assert result.records == [{"title": "Si"}]


async def test_a_resource_template_is_read_with_its_arguments() -> None:
    router = await _router()

    result = await router.invoke(PlanRequest(query="the text of a note", arguments={"title": "Si"}))

    assert result.endpoint == "note_by_title"
    assert result.records == [
        {"uri": "notes://by-title/Si", "mime_type": "text/plain", "text": "# Si\nA semiconductor."}
    ]


async def test_env_applies_to_a_command_line_target_only() -> None:
    with pytest.raises(RegistrationError, match="env= applies to a command-line target only"):
        await SchemaRouter().add_mcp(_notes_server(), name="notes", env={"NOTES_DIR": "/tmp"})
