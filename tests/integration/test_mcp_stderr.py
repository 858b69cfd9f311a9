"""Over stdio, the router's MCP server writes no URL query values to stderr.

The SDK logs to stderr and HTTP clients log each request's URL at INFO; the query carries
the user's data (and, for some APIs, keys), so its values are masked on every handler.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from cookbook.services.materials_api import MaterialsApiServer

pytestmark = [pytest.mark.anyio, pytest.mark.integration]

ROOT = Path(__file__).resolve().parents[2]
LANDSCAPE = """
[tool]
name = "materials"

[routes.mp_api]
kind = "openapi"
url = "{url}/openapi.json"
provider = "materials_project"
operations = ["search"]
headers = {{ x-api-key = "stderr-secret" }}
projection = {{ parameter = "_fields", field_map = {{ formula = "formula_pretty" }} }}
fields = [{{ name = "formula", path = ["formula_pretty"], identity = true }}]
"""


async def test_stderr_over_stdio_carries_no_url_query_values(tmp_path: Path) -> None:
    api = MaterialsApiServer(api_key="stderr-secret")
    api.start()
    landscape = tmp_path / "landscape.toml"
    landscape.write_text(LANDSCAPE.format(url=api.url))
    command = StdioServerParameters(
        command=sys.executable,
        args=["-m", "schemarouter_integrations", "serve-mcp", "--config", str(landscape)],
        cwd=str(ROOT),
    )
    try:
        with tempfile.TemporaryFile("w+", encoding="utf-8") as errlog:
            async with Client(stdio_client(command, errlog=errlog)) as client:
                answer = await client.call_tool("materials", {"query": "band gap of Si", "formula": "Si"})
            errlog.seek(0)
            stderr = errlog.read()
    finally:
        api.stop()
    assert not answer.is_error, answer.content
    assert (api.requests.last.query or {}).get("formula") == "Si"  # the value did travel upstream
    assert "formula=Si" not in stderr and "stderr-secret" not in stderr, stderr[-2000:]
    assert "formula=***" in stderr, stderr[-2000:]  # the request was logged, its values masked
