"""An offline agent loop: a fake tool-calling chat model asks SchemaRouterTool about Si.

The primary route (mp_api) is down; the agent still answers, and the fallback shows up in
the callback handler and in ``astream_events(version="v2")``.
"""

from __future__ import annotations

import pytest

from schemarouter_integrations.langchain import SchemaRouterCallbackHandler
from tests.support.langchain import QUESTION, make_agent, materials_tool


@pytest.mark.anyio
async def test_agent_answers_with_the_primary_route_down() -> None:
    answer = await make_agent(materials_tool(down=("mp_api",))).ainvoke(QUESTION)
    assert answer == "The band gap of Si is 0.61 eV (mp_optimade.search)."


@pytest.mark.anyio
async def test_callback_handler_sees_the_fallback_of_the_agent_run() -> None:
    handler = SchemaRouterCallbackHandler()
    await make_agent(materials_tool(down=("mp_api",))).ainvoke(QUESTION, config={"callbacks": [handler]})
    (fallback,) = handler.fallbacks
    assert (fallback.from_tool, fallback.to_tool, fallback.reason) == ("mp_api", "mp_optimade", "unavailable")
    assert handler.types_seen[-1] == "run.end"


@pytest.mark.anyio
async def test_astream_events_v2_shows_the_fallback_inside_the_agent_run() -> None:
    agent = make_agent(materials_tool(down=("mp_api",)))
    events = [e async for e in agent.astream_events(QUESTION, version="v2")]
    custom = [e for e in events if e["event"] == "on_custom_event"]
    fallback = next(e for e in custom if e["name"] == "tool.fallback")
    agent_run = events[0]["run_id"]
    assert agent_run in fallback["parent_ids"]
    assert (fallback["data"]["from_tool"], fallback["data"]["to_tool"]) == ("mp_api", "mp_optimade")
    assert events[-1]["data"]["output"] == "The band gap of Si is 0.61 eV (mp_optimade.search)."
