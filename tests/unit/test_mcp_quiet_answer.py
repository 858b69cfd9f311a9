"""An MCP answer nobody listens to (built from the quiet run's records, without validation)
is the ``CallToolResult`` a streamed run's answer gives, fallbacks included."""

from __future__ import annotations

from typing import Any

import pytest
from mcp_types import CallToolResult, TextContent

from schemarouter_integrations.mcp import router_mcp_server
from tests.support.seed import seed_router

pytestmark = pytest.mark.anyio
ASK = {"query": "Si band gap", "formula": "Si"}


async def _answer(*, progress: bool) -> CallToolResult:
    """One call over a fresh router whose ``mp_api`` is down; *progress*: the client listens."""
    from mcp import Client

    router, _ = seed_router(down=("mp_api",))
    server = router_mcp_server(router, fallback_scope="same_provider")
    steps: list[str | None] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        steps.append(message)

    async with Client(server) as client:
        result = await client.call_tool(
            "data_lookup", dict(ASK), progress_callback=on_progress if progress else None
        )
    assert bool(steps) is progress  # the listening call was streamed, the other one not
    return result


def _wire(result: CallToolResult) -> dict[str, Any]:
    return result.model_dump(mode="json", by_alias=True, exclude_none=True)


async def test_a_quiet_answer_reads_like_a_streamed_one_fallbacks_included() -> None:
    quiet, streamed = await _answer(progress=False), await _answer(progress=True)
    assert _wire(quiet) == _wire(streamed)
    assert quiet.structured_content is not None
    assert quiet.structured_content["fallbacks"] == [
        {
            "from": "mp_api.search",
            "to": "mp_optimade.search",
            "reason": "unavailable",
            "scope": "same_provider",
        }
    ]


async def test_a_server_side_answer_equals_its_validated_copy() -> None:
    router, _ = seed_router(down=("mp_api",))
    server = router_mcp_server(router, fallback_scope="same_provider")
    result = await server.call_tool("data_lookup", dict(ASK))
    assert isinstance(result, CallToolResult) and not result.is_error
    [text] = result.content
    assert isinstance(text, TextContent)
    validated = CallToolResult(
        content=[TextContent(type="text", text=text.text)], structured_content=result.structured_content
    )
    assert validated == result and validated.model_fields_set == result.model_fields_set
    assert text.model_fields_set == validated.content[0].model_fields_set
    assert _wire(validated) == _wire(result)
