"""What the model reads: records it can tell apart, missing values and unmatched words said
plainly, through the framework core, the LangChain tool and the LlamaIndex tool."""

from __future__ import annotations

import json

import pytest

from schemarouter_integrations import PlanRequest
from schemarouter_integrations._framework import result_content
from schemarouter_integrations.langchain import SchemaRouterTool
from schemarouter_integrations.llamaindex import SchemaRouterToolSpec
from tests.support.questions import github_router, si_router

pytestmark = pytest.mark.anyio

SI = {"formula": "Si"}


async def content(query: str, **arguments: object) -> str:
    result = await si_router().invoke(PlanRequest(query=query, arguments=arguments))
    return result_content(result)


def records(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


async def test_identity_fields_tell_two_records_apart() -> None:
    shown = records(await content("band gap of Si", **SI))
    assert shown == [
        {"band_gap": 0.61, "formula": "Si", "material_id": "mp-149"},
        {"band_gap": 0.0, "formula": "Si", "material_id": "mp-1095"},
    ]


async def test_a_needed_field_the_source_did_not_return_is_stated_instead_of_printed_as_null() -> None:
    text = await content("elastic modulus of Si", **SI)
    assert "The source did not return: elastic_modulus." in text.splitlines()
    assert "null" not in text
    assert records(text)[0] == {"formula": "Si", "material_id": "mp-149"}


async def test_unmatched_words_with_an_answered_need_are_stated_after_the_answer() -> None:
    lines = (await content("band gap and melting point of Si", **SI)).splitlines()
    assert lines[0] == "Answered by mp_api.search (materials_project, openapi)."
    assert lines[1].startswith("Records (")
    assert (
        lines[-1]
        == "No data source exposes 'melting point'. Returned instead: band_gap, material_id, formula."
    )


async def test_an_empty_need_with_unmatched_words_leads_with_the_answer_then_what_no_source_exposes() -> None:
    router = github_router()

    async def issues(call: object) -> object:
        return [{"title": "Bug", "number": 1, "state": "open"}]

    router.bind("github", issues)
    result = await router.invoke(
        PlanRequest(query="issues with milestones", arguments={"owner": "octocat", "repo": "hello-world"})
    )
    lines = result_content(result).splitlines()
    assert lines[0].startswith("Answered by github.") and lines[1] == "Records (1):"
    assert lines[-1] == "No data source exposes 'milestones'. Returned instead: title, number, state."


async def test_the_langchain_tool_returns_records_with_their_identity_fields() -> None:
    tool = SchemaRouterTool(router=si_router(), name="materials")
    message = await tool.ainvoke(
        {"type": "tool_call", "id": "c1", "name": "materials", "args": {"query": "band gap", "formula": "Si"}}
    )
    assert '{"band_gap": 0.0, "formula": "Si", "material_id": "mp-1095"}' in message.content.splitlines()


async def test_the_langchain_tool_says_which_words_no_source_exposes() -> None:
    tool = SchemaRouterTool(router=si_router(), name="materials")
    message = await tool.ainvoke(
        {
            "type": "tool_call",
            "id": "c1",
            "name": "materials",
            "args": {"query": "melting point of Si", "formula": "Si"},
        }
    )
    assert message.status == "error"
    assert message.content.startswith(
        "No data source exposes 'melting point', so there is no answer about it."
    )


async def test_the_llamaindex_tool_states_a_missing_value() -> None:
    (tool,) = SchemaRouterToolSpec(si_router(), name="materials").to_tool_list()
    output = await tool.acall(query="elastic modulus of Si", formula="Si")
    assert not output.is_error
    assert "The source did not return: elastic_modulus." in output.content
    assert "null" not in output.content


async def test_the_llamaindex_tool_says_which_words_no_source_exposes() -> None:
    (tool,) = SchemaRouterToolSpec(si_router(), name="materials").to_tool_list()
    output = await tool.acall(query="melting point of Si", formula="Si")
    assert output.is_error
    assert output.content.startswith("No data source exposes 'melting point'")
    assert "band_gap" in output.content


async def test_a_field_written_at_its_result_path_is_not_called_missing() -> None:
    from schemarouter_integrations import EndpointSpec, FieldSpec, SchemaRouter, ToolSpec

    router = SchemaRouter()
    fields = [FieldSpec(name="band_gap", result_path=["props", "band_gap"]), FieldSpec(name="material_id")]
    endpoint = EndpointSpec(
        name="search",
        read_only=True,
        input_schema={"type": "object", "properties": {"formula": {"type": "string"}}},
        fields=fields,
    )

    async def answer(call: object) -> list[dict[str, object]]:
        return [{"band_gap": 1.1, "material_id": "mp-149"}]

    router.register(ToolSpec(name="mp", provider="mp", endpoints=[endpoint]), answer)
    result = await router.invoke(PlanRequest(query="band gap", arguments={"formula": "Si"}))

    text = result_content(result)
    assert result.records == [{"props": {"band_gap": 1.1}}]
    assert "did not return" not in text
