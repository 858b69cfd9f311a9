"""The LlamaIndex tool builds no instrumentation event when no handler would read it."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import ToolResult
from schemarouter_integrations.llamaindex import SchemaRouterToolSpec
from schemarouter_integrations.llamaindex import _tool_spec as tool_spec
from tests.support.llamaindex import capturing
from tests.support.seed import seed_router

pytestmark = pytest.mark.anyio
ASK = {"query": "Si band gap", "formula": "Si"}


@pytest.fixture
def dispatched(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = tool_spec.dispatch_router_event

    def counting(event: Any, dispatcher: Any = None) -> Any:
        seen.append(event.type)
        return real(event, dispatcher=dispatcher)

    monkeypatch.setattr(tool_spec, "dispatch_router_event", counting)
    return seen


async def test_without_a_handler_no_event_is_converted_and_the_result_keeps_every_event(
    dispatched: list[str],
) -> None:
    router, _ = seed_router()
    tool = SchemaRouterToolSpec(router, preferred_tools=["mp_api"]).to_tool_list()[0]

    output = await tool.acall(**ASK)

    assert dispatched == [] and not output.is_error
    result = output.raw_output
    assert isinstance(result, ToolResult)
    assert result.events[0].type == "run.start" and result.events[-1].type == "tool.end"


async def test_a_handler_on_the_root_dispatcher_sees_every_event(dispatched: list[str]) -> None:
    router, _ = seed_router()
    tool = SchemaRouterToolSpec(router, preferred_tools=["mp_api"]).to_tool_list()[0]

    with capturing() as handler:
        await tool.acall(**ASK)

    assert dispatched[0] == "run.start" and dispatched[-1] == "run.end"
    seen = [e.router_event_type for e in handler.events if hasattr(e, "router_event_type")]
    assert seen == dispatched
