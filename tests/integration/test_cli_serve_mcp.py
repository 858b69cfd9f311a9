"""``schemarouter-integrations serve-mcp --config FILE`` serves a landscape's router over MCP;
``kind = "mcp"`` landscape routes register an MCP server's tools."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from schemarouter_integrations.config import load_config
from schemarouter_integrations.errors import ConfigurationError

pytestmark = [pytest.mark.anyio, pytest.mark.integration]

ROOT = Path(__file__).resolve().parents[2]
LANDSCAPE = f"""
python_path = ["{ROOT}"]

[tool]
name = "materials_lookup"
scope = "same_provider"

[routes.mp_python]
kind = "python"
function = "cookbook.services.mp_client:summary_search"
provider = "materials_project"
read_only = true
fields = ["band_gap", "material_id", {{ name = "formula", path = ["formula_pretty"] }}]
"""


async def test_serve_mcp_serves_the_landscape_over_stdio(tmp_path: Path) -> None:
    landscape = tmp_path / "landscape.toml"
    landscape.write_text(LANDSCAPE)
    command = StdioServerParameters(
        command=sys.executable,
        args=["-m", "schemarouter_integrations", "serve-mcp", "--config", str(landscape)],
        cwd=str(ROOT),
    )
    async with Client(command) as client:
        listed = await client.list_tools()
        (tool,) = listed.tools
        assert tool.name == "materials_lookup"  # the landscape's [tool] settings are served
        assert "formula" in tool.input_schema["properties"]
        answer = await client.call_tool(tool.name, {"query": "band gap of Si", "formula": "Si"})
    assert not answer.is_error
    assert answer.structured_content is not None
    assert answer.structured_content["answered_by"] == "mp_python.summary_search"


def test_an_mcp_route_in_a_landscape_is_read_with_its_settings(tmp_path: Path) -> None:
    landscape = tmp_path / "mcp.toml"
    landscape.write_text(
        '[routes.materials_mcp]\nkind = "mcp"\ntarget = ["python", "server.py"]\n'
        'provider = "materials_project"\nread_only = ["search_materials"]\nprobe = "ping"\n'
    )
    route = load_config(landscape).routes["materials_mcp"]
    assert (route.kind, route.target, route.read_only) == (
        "mcp",
        ["python", "server.py"],
        ["search_materials"],
    )


def test_an_mcp_route_with_an_unknown_key_names_the_line(tmp_path: Path) -> None:
    landscape = tmp_path / "bad.toml"
    landscape.write_text('[routes.materials_mcp]\nkind = "mcp"\ntarget = "http://x/mcp"\nreadonly = true\n')
    with pytest.raises(ConfigurationError, match=r"bad.toml:4"):
        load_config(landscape)
