"""Routers of routers: a lab's router behind an institute's router, over MCP on loopback.

Runs offline: ``python cookbook/routers_of_routers.py``. The lab router has two routes to
its band-gap data (its database and a backup); it is served as an MCP server over
streamable HTTP (``router_mcp_server``). The institute router adds the lab's server with
``add_mcp`` beside its own archive. Then the lab database goes down:

1. the lab falls back to its backup inside itself; the institute sees that as a
   ``route.inner_fallback`` event on its ``lab`` route (never as its own ``tool.fallback``),
   and ``ToolResult.provenance`` says which lab route answered;
2. the lab's backup goes down too: the lab answers "every route unavailable", and the
   institute falls back across the lab to its archive like across any route.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cookbook.services.uvicorn_thread import UvicornThread
from schemarouter_integrations import PlanRequest, SchemaRouter
from schemarouter_integrations.events import RouteInnerFallbackEvent
from schemarouter_integrations.mcp import router_mcp_server

DOWN: set[str] = set()
FIELDS: list[Any] = ["band_gap", {"name": "formula", "identity": True}]


def source(name: str, band_gap: float) -> Any:
    """A data source of the lab or the institute; raises ConnectionError while it is down."""

    def search(formula: str) -> list[dict[str, Any]]:
        if name in DOWN:
            raise ConnectionError(f"{name} is down")
        return [{"formula": formula, "band_gap": band_gap}]

    search.__name__ = "search"
    return search


def lab_router() -> SchemaRouter:
    lab = SchemaRouter()
    lab.add_callable(source("lab_db", 0.61), name="lab_db", provider="lab", read_only=True, fields=FIELDS)
    lab.add_callable(
        source("lab_backup", 0.61), name="lab_backup", provider="lab", read_only=True, fields=FIELDS
    )
    return lab


async def main() -> None:
    lab = lab_router()
    server = router_mcp_server(lab, preferred_tools=["lab_db"], fallback_scope="same_provider")
    served = UvicornThread(server.streamable_http_app()).start()
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per MCP request otherwise
    institute = SchemaRouter()
    try:
        await institute.add_mcp(served.url + "/mcp", name="lab", provider="lab", read_only=True)
        institute.add_callable(
            source("archive", 0.6), name="archive", provider="institute", read_only=True, fields=FIELDS
        )
        question = PlanRequest(
            query="band gap of Si",
            arguments={"formula": "Si"},
            preferred_tools=["lab"],
            fallback_scope="cross_provider",
        )

        result = await institute.invoke(question)
        print(f"All up: answered by {result.access_path}, inside the lab by {result.provenance.answered_by}")  # type: ignore[union-attr]

        DOWN.add("lab_db")
        result = await institute.invoke(question)
        inner = [e for e in result.events if isinstance(e, RouteInnerFallbackEvent)]
        own = [e for e in result.events if e.type == "tool.fallback"]
        for event in inner:
            seen = f"{event.from_path} -> {event.to_path} ({event.reason})"
            print(f"Inner fallback seen from the institute: {seen}")
        print(f"Institute fallbacks: {len(own)}; records: {result.records}; provenance: {result.provenance}")

        DOWN.add("lab_backup")
        result = await institute.invoke(question)
        print(f"Whole lab down: answered by {result.access_path}, route {result.route}")
    finally:
        await institute.aclose()
        await lab.aclose()
        served.stop()


if __name__ == "__main__":
    anyio.run(main)
