"""A hedged run in LangSmith (the real ``langsmith`` client posting to a loopback capture).

The primary's server hangs, the mirror answers: the tool run shows ``tool.hedge`` and its
count in the metadata, and the outrun route's child run says it was outrun, not that the
route failed.
"""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from langchain_core.tracers import LangChainTracer
from langsmith import Client

from schemarouter_integrations import HedgePolicy, SchemaRouter
from schemarouter_integrations.langchain import SchemaRouterTool
from tests.servers.fault_server import FaultServer
from tests.servers.langsmith_capture import LangSmithCapture
from tests.support.hedging import add_hanging_and_mirror

pytestmark = pytest.mark.integration

TOOL_CALL = {
    "type": "tool_call",
    "id": "h1",
    "name": "materials",
    "args": {"query": "band gap", "formula": "Si"},
}


def _router(server: FaultServer) -> SchemaRouter:
    router = SchemaRouter()
    names = ("mp_api", "mp_mirror")
    anyio.run(lambda: add_hanging_and_mirror(router, server, "langsmith", names=names, timeout_seconds=2.0))
    return router


def test_a_hedged_tool_run_names_the_hedge_and_the_outrun_route(
    langsmith_capture: LangSmithCapture, tracing_client: Client, fault_server: FaultServer
) -> None:
    tool = SchemaRouterTool(
        router=_router(fault_server),
        name="materials",
        fallback_scope="same_provider",
        preferred_tools=["mp_api"],
        hedge=HedgePolicy(0.05),
    )
    tracer = LangChainTracer(client=tracing_client, project_name="hedging")
    tool.invoke(TOOL_CALL, config={"callbacks": [tracer]})
    tracing_client.flush()
    runs = langsmith_capture.wait_for_runs(3)
    (root,) = [r for r in runs if not r.get("parent_run_id")]
    names = [e["name"] for e in root.get("events") or []]
    assert names.index("tool.hedge") < names.index("tool.end")
    assert root["metadata"]["schemarouter_hedges"] == 1
    assert root["metadata"]["schemarouter_route"] == "mp_mirror.search"
    children: list[dict[str, Any]] = langsmith_capture.children_of(root["id"])
    by_name = {child["name"]: child for child in children}
    assert "outrun by its hedge" in by_name["mp_api.search"]["error"]
    assert by_name["mp_mirror.search"].get("error") is None
