"""The MCP conformance suite (npm ``@modelcontextprotocol/conformance``, its server scenarios)
against the router's MCP server over streamable HTTP, under mcp 2.x and under mcp 1.x: no
failure and no warning on any scenario that applies to it.

The suite's other server scenarios call the fixtures of its reference "everything" server
(tools such as ``test_simple_text``, prompts, resources, completions), which the router's
server does not have; ``server-sse-polling`` calls its ``test_reconnection`` tool, and 0.1.16
sends its probes with ``mcp-protocol-version: 2025-03-26``, a version for which the SDK (rightly)
sends no priming event, so it cannot pass against any server that gates priming on the version.
The priming event, ``retry`` and ``Last-Event-ID`` replay are checked by
``tests/integration/test_mcp_sse_priming.py`` instead.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.environments import ROOT, conformance_suite, environment_or_skip, mcp1_python
from tests.support.hosts import HttpServer

pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]  # the first test may build the suite

SCENARIOS = (
    "server-initialize",
    "ping",
    "logging-set-level",
    "tools-list",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
)
"""The server scenarios that apply to the router's server (the others need the suite's fixtures)."""


@pytest.fixture(scope="module")
def suite() -> tuple[Path, Path]:
    return environment_or_skip(conformance_suite, "the MCP conformance suite (npm)")


@pytest.fixture(scope="module", params=["mcp 2.x", "mcp 1.x"])
def server(request: pytest.FixtureRequest) -> Iterator[HttpServer]:
    python = sys.executable
    if request.param == "mcp 1.x":
        python = str(environment_or_skip(mcp1_python, "the mcp 1.x environment"))
    served = HttpServer(python=python)
    try:
        yield served
    finally:
        served.stop()


def run_scenario(suite: tuple[Path, Path], url: str, scenario: str, output: Path) -> list[dict[str, Any]]:
    """The checks of one scenario, as the suite wrote them (``checks.json``)."""
    script, node = suite
    done = subprocess.run(
        [str(node), str(script), "server", "--url", url, "--scenario", scenario, "-o", str(output)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=ROOT,
    )
    written = sorted(output.glob(f"server-{scenario}-*/checks.json"))
    assert written, (
        f"the suite wrote no checks (exit {done.returncode}): {done.stdout[-2000:]} {done.stderr[-2000:]}"
    )
    checks: list[dict[str, Any]] = json.loads(written[-1].read_text(encoding="utf-8"))
    return checks


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_conformance_scenario_passes_without_warnings(
    suite: tuple[Path, Path], server: HttpServer, scenario: str, tmp_path: Path
) -> None:
    checks = run_scenario(suite, server.url, scenario, tmp_path)
    bad = [
        f"{check['id']}: {check['status']} {check.get('errorMessage') or check.get('description')}"
        for check in checks
        if check["status"] not in ("SUCCESS", "INFO")
    ]
    assert not bad, bad
    assert any(check["status"] == "SUCCESS" for check in checks), checks
