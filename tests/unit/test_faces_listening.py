"""The faces listen to router events only when somebody downstream does: otherwise the
router's plain ``invoke`` answers (no stream, no per-event hook); with a listener the
events arrive as before, and a failure reads the same either way."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import SchemaRouter, ToolResult
from schemarouter_integrations.langchain import SchemaRouterCallbackHandler, SchemaRouterTool
from schemarouter_integrations.llamaindex import SchemaRouterToolSpec
from schemarouter_integrations.mcp import router_mcp_server
from tests.support.langchain import tool_call
from tests.support.llamaindex import capturing
from tests.support.seed import seed_router
from tests.unit.test_langchain_events import RunCollector

pytestmark = pytest.mark.anyio
ALL_DOWN = ("mp_api", "mp_optimade", "mp_python", "oqmd_api")
ASK = {"query": "Si band gap", "formula": "Si"}


def counting_invoke(router: SchemaRouter, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Record each ``router.invoke`` call (the answer stays the router's)."""
    calls: list[Any] = []
    real = router.invoke

    async def invoke(request: Any, **kwargs: Any) -> ToolResult:
        calls.append(request)
        return await real(request, **kwargs)

    monkeypatch.setattr(router, "invoke", invoke)
    return calls


def materials(down: tuple[str, ...] = ()) -> tuple[SchemaRouter, SchemaRouterTool]:
    router, _ = seed_router(down=down)
    return router, SchemaRouterTool(router=router, name="materials", fallback_scope="cross_provider")


# -- LangChain ---------------------------------------------------------------------------
async def test_a_langchain_tool_without_callbacks_does_not_subscribe_to_router_events(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    router, tool = materials(down=("mp_api",))
    calls = counting_invoke(router, monkeypatch)
    message = await tool.ainvoke(tool_call())
    assert len(calls) == 1
    assert message.artifact.access_path == "mp_optimade.search"
    assert [e.type for e in message.artifact.events][:2] == ["run.start", "plan.compiled"]


async def test_a_langchain_tool_with_a_handler_gets_the_events_as_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    router, tool = materials(down=("mp_api",))
    calls = counting_invoke(router, monkeypatch)
    handler = SchemaRouterCallbackHandler()
    await tool.ainvoke(tool_call(), config={"callbacks": [handler]})
    assert calls == []
    assert handler.types_seen[0] == "run.start" and handler.types_seen[-1] == "run.end"
    assert "tool.fallback" in handler.types_seen


def test_a_sync_langchain_tool_without_callbacks_answers_through_invoke(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    router, tool = materials(down=("mp_api",))
    calls = counting_invoke(router, monkeypatch)
    assert tool.invoke(tool_call()).artifact.access_path == "mp_optimade.search"
    assert len(calls) == 1


async def test_a_failed_langchain_call_has_the_same_failure_summary_with_or_without_a_listener() -> None:
    _, quiet = materials(down=ALL_DOWN)
    _, traced = materials(down=ALL_DOWN)
    alone = await quiet.ainvoke(tool_call())
    heard = await traced.ainvoke(tool_call(), config={"callbacks": [RunCollector()]})
    assert alone.status == heard.status == "error"
    assert alone.artifact == heard.artifact
    assert alone.artifact["fallbacks"] == 3 and len(alone.artifact["attempts"]) == 4


async def test_a_tool_whose_setting_changed_runs_with_the_new_setting() -> None:
    _, tool = materials(down=("mp_api",))
    tool.fallback_scope = "disabled"
    message = await tool.ainvoke(tool_call())
    assert message.status == "error"
    tool.fallback_scope = "cross_provider"
    assert (await tool.ainvoke(tool_call())).artifact.access_path == "mp_optimade.search"


# -- LlamaIndex --------------------------------------------------------------------------
async def test_a_llamaindex_tool_without_handlers_answers_through_invoke(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    router, _ = seed_router()
    calls = counting_invoke(router, monkeypatch)
    tool = SchemaRouterToolSpec(router, preferred_tools=["mp_api"]).to_tool_list()[0]
    output = await tool.acall(**ASK)
    assert len(calls) == 1 and not output.is_error
    assert isinstance(output.raw_output, ToolResult)


async def test_a_llamaindex_tool_with_a_handler_dispatches_every_event_in_its_span(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    router, _ = seed_router()
    calls = counting_invoke(router, monkeypatch)
    tool = SchemaRouterToolSpec(router, preferred_tools=["mp_api"]).to_tool_list()[0]
    with capturing() as handler:
        await tool.acall(**ASK)
    assert calls == []
    routed = [e for e in handler.events if hasattr(e, "router_event_type")]
    assert routed[0].router_event_type == "run.start" and routed[-1].router_event_type == "run.end"
    spans = {e.span_id for e in routed}
    assert len(spans) == 1 and next(iter(spans)).startswith("SchemaRouterToolSpec.acall-")


# -- MCP ---------------------------------------------------------------------------------
async def test_an_mcp_call_without_a_client_context_answers_through_invoke(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    router, _ = seed_router()
    calls = counting_invoke(router, monkeypatch)
    server = router_mcp_server(router, preferred_tools=["mp_api"])
    result = await server.call_tool("data_lookup", dict(ASK))
    assert len(calls) == 1 and not result.is_error
    assert result.structured_content is not None
    assert result.structured_content["answered_by"] == "mp_api.search"


async def test_an_mcp_client_that_asks_for_progress_gets_every_event_as_a_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mcp import Client

    router, _ = seed_router(down=("mp_api",))
    calls = counting_invoke(router, monkeypatch)
    server = router_mcp_server(router, fallback_scope="same_provider")
    steps: list[str | None] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        steps.append(message)

    async with Client(server) as client:
        result = await client.call_tool("data_lookup", dict(ASK), progress_callback=on_progress)
    assert not result.is_error and calls == []
    assert steps[0] == "run.start" and "tool.fallback" in steps and steps[-1] == "run.end"


async def test_an_mcp_client_that_asks_for_neither_progress_nor_logs_is_answered_through_invoke(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mcp import Client

    router, _ = seed_router(down=("mp_api",))
    calls = counting_invoke(router, monkeypatch)
    server = router_mcp_server(router, fallback_scope="same_provider")
    async with Client(server) as client:
        result = await client.call_tool("data_lookup", dict(ASK))
    assert not result.is_error and len(calls) == 1


async def test_an_mcp_client_that_asks_for_logs_gets_every_event_as_a_log_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mcp import Client

    router, _ = seed_router(down=("mp_api",))
    calls = counting_invoke(router, monkeypatch)
    server = router_mcp_server(router, fallback_scope="same_provider")
    logs: list[Any] = []

    async def on_log(params: Any) -> None:
        logs.append(params)

    async with Client(server, logging_callback=on_log, log_level="info") as client:
        result = await client.call_tool("data_lookup", dict(ASK))
    assert not result.is_error and calls == []
    types = [log.data["type"] for log in logs]
    assert types[0] == "run.start" and "tool.fallback" in types and types[-1] == "run.end"
