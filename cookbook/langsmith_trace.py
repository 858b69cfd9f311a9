"""Read a LangSmith trace of a fallback, offline: the real ``langsmith`` client posts to a
loopback capture server (``cookbook/services/langsmith_capture.py``) instead of LangSmith.

Runs offline: ``python cookbook/langsmith_trace.py``. The tool run carries the router events
(``tool.fallback`` among them) and metadata ``schemarouter_route``; each attempted route is
a child run named like ``mp_api.search``. Point the same tracer at LangSmith itself
(``LANGSMITH_API_KEY``) to see it in the UI.
"""

from __future__ import annotations

import sys
from pathlib import Path

from langchain_core.tracers import LangChainTracer

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cookbook.langchain_agent import build_router
from cookbook.services.langsmith_capture import LangSmithCapture
from schemarouter_integrations.langchain import SchemaRouterTool

TOOL_CALL = {"type": "tool_call", "id": "c1", "name": "materials", "args": {"query": "band gap of Si"}}


def main() -> None:
    with LangSmithCapture() as capture:
        client = capture.client()
        tool = SchemaRouterTool(
            router=build_router(), name="materials", fallback_scope="cross_provider", max_fallbacks=2
        )
        tool.invoke(TOOL_CALL, config={"callbacks": [LangChainTracer(client=client, project_name="demo")]})
        client.flush()
        runs = capture.wait_for_runs(3)
        root = next(run for run in runs if not run.get("parent_run_id"))
        print(f"tool run {root['name']!r}: events {[e['name'] for e in root.get('events') or []]}")
        metadata = (root.get("extra") or {}).get("metadata") or {}
        print(f"  route metadata: {metadata.get('schemarouter_route')}")
        for child in capture.children_of(root["id"]):
            outcome = "error" if child.get("error") else "ok"
            print(f"  child run {child['name']}: {outcome}")
        fallback = next(e for e in root["events"] if e["name"] == "tool.fallback")
        print(f"Fallback in the trace: {fallback['kwargs']['from_tool']} -> {fallback['kwargs']['to_tool']}")


if __name__ == "__main__":
    main()
