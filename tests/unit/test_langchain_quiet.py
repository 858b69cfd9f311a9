"""Nobody listening costs nothing: custom events only for handlers that take them, child runs
only with a handler."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations.langchain import SchemaRouterCallbackHandler, _tracing
from tests.support.langchain import materials_tool, tool_call
from tests.unit.test_langchain_events import RunCollector

pytestmark = pytest.mark.anyio


@pytest.fixture
def dispatched(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    names: list[str] = []
    original = _tracing.adispatch_custom_event

    async def counting(name: str, data: Any, **kwargs: Any) -> None:
        names.append(name)
        await original(name, data, **kwargs)

    monkeypatch.setattr(_tracing, "adispatch_custom_event", counting)
    return names


async def test_without_callbacks_no_custom_event_is_dispatched(dispatched: list[str]) -> None:
    message = await materials_tool(down=("mp_api",)).ainvoke(tool_call())
    assert message.artifact.access_path == "mp_optimade.search"
    assert dispatched == []


async def test_a_tracer_that_ignores_custom_events_gets_none_but_still_the_route_tree(
    dispatched: list[str],
) -> None:
    collector = RunCollector()
    await materials_tool(down=("mp_api",)).ainvoke(tool_call(), config={"callbacks": [collector]})
    assert dispatched == []
    (root,) = collector.roots
    assert [c.name for c in root.child_runs] == ["mp_api.search", "mp_optimade.search"]


async def test_a_handler_that_takes_custom_events_gets_every_router_event(dispatched: list[str]) -> None:
    handler = SchemaRouterCallbackHandler()
    await materials_tool(down=("mp_api",)).ainvoke(tool_call(), config={"callbacks": [handler]})
    assert "tool.fallback" in dispatched and dispatched == handler.types_seen
