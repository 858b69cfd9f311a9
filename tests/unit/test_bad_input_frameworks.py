"""Bad input reaching the framework tools comes back as a message the model can act on.

Arguments the model (or a Python caller) sends that are not JSON data are refused before any
route runs; a source answering outside its contract is not blamed on the model's arguments.
"""

from __future__ import annotations

import pytest

from schemarouter_integrations import EndpointSpec, SchemaRouter, ToolSpec
from schemarouter_integrations.langchain import SchemaRouterTool
from schemarouter_integrations.llamaindex import SchemaRouterToolSpec
from tests.support.langchain import tool_call
from tests.support.seed import FakeInvoker, band_gap, formula, seed_router

UNTYPED = {"type": "object", "properties": {"formula": {}}}
"""An argument the model-facing schema cannot type, so any value passes the framework's own check."""


def test_langchain_tool_reads_an_argument_that_is_not_json_data_as_a_tool_error() -> None:
    router, invokers = seed_router(input_schema=UNTYPED)
    tool = SchemaRouterTool(router=router, name="materials")
    message = tool.invoke(tool_call({"query": "band gap", "formula": {"Si"}}))
    assert message.status == "error"
    assert message.content.startswith("Invalid tool arguments:")
    assert "formula" in message.content
    assert all(not inv.calls for inv in invokers.values())


@pytest.mark.anyio
async def test_llamaindex_tool_gives_an_error_output_for_an_argument_that_is_not_json_data() -> None:
    router, invokers = seed_router(input_schema=UNTYPED)
    tool = SchemaRouterToolSpec(router).to_tool_list()[0]
    output = await tool.acall(query="band gap", formula=b"Si")
    assert output.is_error
    assert "formula" in output.content
    assert all(not inv.calls for inv in invokers.values())


def test_a_response_outside_its_schema_does_not_tell_the_model_to_fix_its_arguments() -> None:
    router = SchemaRouter()
    router.register(
        ToolSpec(
            name="mp_api",
            endpoints=[
                EndpointSpec(
                    name="search",
                    read_only=True,
                    fields=[band_gap(), formula("formula_pretty")],
                    output_schema={"type": "object", "required": ["never_sent"]},
                    records_path=["data"],
                )
            ],
        ),
        FakeInvoker("mp_api"),
    )
    message = SchemaRouterTool(router=router, name="materials").invoke(tool_call({"query": "band gap"}))
    assert message.status == "error"
    assert "Fix the arguments" not in message.content
    assert "retrying will not help" in message.content
