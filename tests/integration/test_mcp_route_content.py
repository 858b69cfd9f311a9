"""What an MCP route may answer: JSON data within the router's size limit, nothing else."""

from __future__ import annotations

import pytest
from mcp.server import MCPServer

from schemarouter_integrations import PlanRequest, SchemaRouter, SchemaValidationError
from schemarouter_integrations.errors import NonRetryableInvocationError

pytestmark = [pytest.mark.anyio, pytest.mark.integration]

REQUEST = PlanRequest(query="band gap", arguments={"formula": "Si"}, preferred_tools=["lab"])


def _server(answer: str) -> MCPServer:
    server = MCPServer("lab")

    @server.tool(structured_output=False)  # text content only, as many servers answer
    def band_gap(formula: str) -> str:
        """The band gap of a material, as text."""
        return answer

    return server


async def _router(answer: str, **settings: int) -> SchemaRouter:
    router = SchemaRouter(**settings)
    await router.add_mcp(_server(answer), name="lab", read_only=True, fields=["band_gap"])
    return router


async def test_text_that_is_not_json_is_an_error_about_the_response() -> None:
    router = await _router("The band gap of Si is about 1.1 eV.")

    with pytest.raises(SchemaValidationError, match="not JSON") as raised:
        await router.invoke(REQUEST)
    assert raised.value.subject == "response"


async def test_json_text_is_still_read_as_data() -> None:
    router = await _router('[{"band_gap": 1.1}]')

    result = await router.invoke(REQUEST)

    assert result.records == [{"band_gap": 1.1}]


async def test_content_past_max_response_bytes_is_refused() -> None:
    router = await _router("[" + ",".join(['{"band_gap": 1.1}'] * 20_000) + "]", max_response_bytes=64 * 1024)

    with pytest.raises(NonRetryableInvocationError, match="max_response_bytes"):
        await router.invoke(REQUEST)
