"""A small MCP server (written with the ``mcp`` SDK) serving materials records by formula.

Tools:

* ``search_materials(formula)`` -> ``{"records": [{material_id, formula, band_gap, source}]}``
  (``readOnlyHint=True``; ``outputSchema`` from the pydantic return type);
* ``delete_material(material_id)`` -> ``{"deleted": id}`` (``destructiveHint=True``);
* ``strict_lookup(formula)``: an ``isError`` result for an unknown formula.

``build_materials_server(source=...)`` makes one in-process (for HTTP in a thread, or
``mcp.Client(server)``). Run as a script, it serves over stdio:
``python tests/servers/mcp_materials.py --source stdio --pid-file P --down-file D``
writes its PID to *P* and exits at once (status 3) while *D* exists, so a test can kill it
mid-session and keep it "down" until the file is removed.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field

BAND_GAPS: dict[str, tuple[str, float]] = {
    "Si": ("mp-149", 0.61),
    "GaAs": ("mp-2534", 1.52),
    "ZnO": ("mp-2133", 0.73),
}


class Material(BaseModel):
    material_id: str = Field(description="Materials Project identifier")
    formula: str = Field(description="Reduced chemical formula")
    band_gap: float = Field(description="PBE band gap in eV")
    source: str = Field(description="Which server answered")


class Materials(BaseModel):
    records: list[Material]


def build_materials_server(*, name: str = "materials", source: str = "inproc") -> MCPServer:
    """The materials server; ``source`` is written into every record."""
    server: MCPServer = MCPServer(name)

    @server.tool(annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
    def search_materials(formula: str) -> Materials:
        """Band gap and identifier of materials by reduced chemical formula."""
        known = BAND_GAPS.get(formula)
        if known is None:
            return Materials(records=[])
        material_id, gap = known
        return Materials(
            records=[Material(material_id=material_id, formula=formula, band_gap=gap, source=source)]
        )

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True))
    def delete_material(material_id: str) -> dict[str, Any]:
        """Delete a material record."""
        return {"deleted": material_id}

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    def strict_lookup(formula: str) -> Materials:
        """Like search_materials, but an unknown formula is an error."""
        if formula not in BAND_GAPS:
            raise ToolError(f"unknown formula {formula!r}")
        return search_materials(formula)

    return server


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", default="stdio")
    parser.add_argument("--pid-file")
    parser.add_argument("--down-file")
    args = parser.parse_args(argv)
    if args.down_file and Path(args.down_file).exists():
        sys.exit(3)
    if args.pid_file:
        Path(args.pid_file).write_text(str(os.getpid()))
    build_materials_server(source=args.source).run("stdio")


if __name__ == "__main__":
    main()
