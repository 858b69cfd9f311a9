"""The MCP server's start path imports what it uses: a router of Python routes served over
stdio loads no HTTP client (``httpx`` loads with the first HTTP failure to classify)."""

from __future__ import annotations

from tests.unit.test_import_cost import loaded_after


def test_python_routes_load_no_http_client() -> None:
    loaded = loaded_after("import schemarouter_integrations.adapters._python")
    assert "httpx" not in loaded


def test_classifying_an_http_failure_still_reads_its_status() -> None:
    from schemarouter_integrations.adapters._http_errors import http_failure

    error = http_failure("GET /x", status_code=503, headers={"retry-after": "2"})
    assert "503 Service Unavailable" in str(error)
