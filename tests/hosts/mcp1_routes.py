"""MCP servers as routes of a router running under mcp 1.x (in the mcp 1.x venv).

``python mcp1_routes.py stdio '<command line as JSON>'``, ``python mcp1_routes.py http URL`` or
``python mcp1_routes.py inprocess -`` registers the server (another router's MCP server, or an
in-process ``FastMCP`` with one tool) with ``add_mcp`` and asks it for the band gap of Si, then of
a formula no route answers, and pings the server (``mcp_ping_probe``). Prints one JSON object:
the endpoints registered, the answer's records, ``answered_by`` and provenance, the probe's
answer and the error type of the second question.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import anyio

from schemarouter_integrations import PlanRequest, SchemaRouter
from schemarouter_integrations.adapters import mcp_ping_probe


def in_process_server() -> Any:
    from mcp.server.fastmcp import FastMCP

    server = FastMCP("materials")

    @server.tool()
    def search(formula: str) -> dict[str, list[dict[str, Any]]]:
        """Materials with their band gap, by formula."""
        if formula == "Xx":
            raise ValueError("no such formula")
        return {"records": [{"formula": formula, "band_gap": 0.61}]}

    return server


async def main(transport: str, target: str) -> dict[str, Any]:
    given: Any = {"stdio": lambda: json.loads(target), "http": lambda: target, "inprocess": in_process_server}
    router = SchemaRouter()
    async with router:
        spec = await router.add_mcp(
            given[transport](), name="inner", provider="materials_project", read_only=True
        )
        out: dict[str, Any] = {"endpoints": sorted(endpoint.name for endpoint in spec.endpoints)}
        result = await router.invoke(PlanRequest(query="band gap of Si", arguments={"formula": "Si"}))
        out["records"] = [dict(record) for record in result.records]
        out["answered_by"] = result.access_path
        provenance = getattr(result, "provenance", None)
        out["provenance"] = provenance.model_dump(mode="json") if provenance is not None else None
        out["ping"] = await mcp_ping_probe(router, "inner")()
        try:
            await router.invoke(PlanRequest(query="band gap of Xx", arguments={"formula": "Xx"}))
            out["failure"] = None
        except Exception as exc:
            out["failure"] = type(exc).__name__
        return out


if __name__ == "__main__":
    print(json.dumps(anyio.run(main, sys.argv[1], sys.argv[2])))
