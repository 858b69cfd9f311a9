"""Routers of routers: a lab's router behind an institute's router behind a campus router,
over MCP on loopback.

Runs offline: ``python cookbook/routers_of_routers.py``. The lab router has two routes to
its band-gap data (its database and a backup); it is served as an MCP server over
streamable HTTP (``router_mcp_server``). The institute router adds the lab's server with
``add_mcp`` beside an archive of its own, and is served in turn; the campus router adds the
institute's server. Then:

1. the lab database goes down: the lab falls back to its backup inside itself; the
   institute sees that as a ``route.inner_fallback`` event on its ``lab`` route (never as
   its own ``tool.fallback``), and from the campus ``ToolResult.provenance`` names the
   innermost answerer and ``provenance.chain`` every level's;
2. the lab's routes all cool down: the lab answers "unavailable", and the institute falls
   back across the lab to its archive like across any route (again after a health probe
   reopens the lab route);
3. the lab registers the institute's server too, so the two call each other: the hop list
   each call carries (``schemarouter/hops`` in the MCP request ``_meta``) refuses the loop at
   its first repeat, and the institute falls back to its archive (reason ``loop``).
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
from schemarouter_integrations.adapters import mcp_ping_probe
from schemarouter_integrations.events import RouteInnerFallbackEvent
from schemarouter_integrations.mcp import router_mcp_server

DOWN: set[str] = set()
FIELDS: list[Any] = ["band_gap", {"name": "formula", "identity": True}]
QUESTION = PlanRequest(
    query="band gap of Si",
    arguments={"formula": "Si"},
    preferred_tools=["lab"],
    fallback_scope="cross_provider",
)


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


def served(router: SchemaRouter, servers: list[UvicornThread], **options: Any) -> str:
    """The router's MCP server over streamable HTTP on loopback: its URL."""
    server = UvicornThread(router_mcp_server(router, **options).streamable_http_app()).start()
    for name in ("httpx", "httpx2"):  # one line per MCP request otherwise
        logging.getLogger(name).setLevel(logging.WARNING)
    servers.append(server)
    return server.url + "/mcp"


async def main() -> None:
    servers: list[UvicornThread] = []
    lab, institute, campus = lab_router(), SchemaRouter(), SchemaRouter()
    try:
        lab_url = served(lab, servers, preferred_tools=["lab_db"], fallback_scope="same_provider")
        await institute.add_mcp(lab_url, name="lab", provider="lab", read_only=True)
        institute.add_callable(
            source("archive", 0.6), name="archive", provider="institute", read_only=True, fields=FIELDS
        )
        institute_url = served(institute, servers, preferred_tools=["lab"], fallback_scope="cross_provider")
        await campus.add_mcp(institute_url, name="institute", provider="institute", read_only=True)

        result = await institute.invoke(QUESTION)
        print(f"All up: answered by {result.access_path}, inside the lab by {result.provenance.answered_by}")  # type: ignore[union-attr]

        DOWN.add("lab_db")
        result = await institute.invoke(QUESTION)
        inner = [e for e in result.events if isinstance(e, RouteInnerFallbackEvent)]
        own = [e for e in result.events if e.type == "tool.fallback"]
        for event in inner:
            seen = f"{event.from_path} -> {event.to_path} ({event.reason})"
            print(f"Inner fallback seen from the institute: {seen}")
        print(f"Institute fallbacks: {len(own)}; records: {result.records}; provenance: {result.provenance}")

        from_campus = await campus.invoke(PlanRequest(query="band gap of Si", arguments={"formula": "Si"}))
        provenance = from_campus.provenance
        assert provenance is not None
        print(f"From the campus: answered inside by {provenance.answered_by}; chain {provenance.chain}")
        DOWN.clear()

        for path in ("lab_db", "lab_backup"):  # a known outage: the lab's routes cool down
            lab.mark_access_unavailable(path, "search", seconds=300, reason="maintenance")
        result = await institute.invoke(QUESTION)
        print(f"Lab routes cooling: answered by {result.access_path}, route {result.route}")
        if await mcp_ping_probe(institute, "lab")():  # the lab's server answers: the probe reopens it
            institute.mark_access_available("lab", "data_lookup")
        result = await institute.invoke(QUESTION)
        print(f"After the probe reopened the lab route: answered by {result.access_path}")

        # the lab registers the institute in turn (its own routes still cooling down), so a
        # question the lab cannot answer itself would go lab -> institute -> lab -> ...
        await lab.add_mcp(institute_url, name="institute", provider="institute", read_only=True)
        institute.mark_access_available("lab", "data_lookup")
        with anyio.fail_after(30):
            result = await institute.invoke(QUESTION)
        reasons = [getattr(e, "reason", None) for e in result.events if e.type == "tool.fallback"]
        print(f"Routers registering each other: answered by {result.access_path}; fallbacks {reasons}")
    finally:
        for router in (campus, institute, lab):
            await router.aclose()
        for server in servers:
            server.stop()


if __name__ == "__main__":
    anyio.run(main)
