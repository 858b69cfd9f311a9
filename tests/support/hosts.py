"""The cross-host tests' server and scenarios: the router's MCP server
(``tests/servers/mcp_host_server.py``) as a stdio command line and over streamable HTTP, and the
calls every host makes."""

from __future__ import annotations

import socket
import subprocess
import sys
import time

from tests.servers.phoenix_server import free_port
from tests.support.environments import ROOT

SERVER = ROOT / "tests" / "servers" / "mcp_host_server.py"
START_SECONDS = 60.0

ANSWERED = {"query": "band gap of Si", "formula": "Si"}
FALLBACK = {"query": "band gap of Ge", "formula": "Ge"}
ALL_DOWN = {"query": "band gap of Xx", "formula": "Xx"}
BAD_ARGUMENTS = {"query": "band gap of Si", "limit": 0}
SCENARIOS = [ANSWERED, FALLBACK, ALL_DOWN, BAD_ARGUMENTS]
"""The calls every host makes, in this order (the server's cooldowns last a millisecond)."""


def stdio_command(*options: str, python: str = sys.executable) -> list[str]:
    """The host server's command line, run by *python* (this interpreter unless given)."""
    return [python, str(SERVER), *options]


class HttpServer:
    """The host server over streamable HTTP in a subprocess; ``url`` is its MCP endpoint."""

    def __init__(self, *options: str, python: str = sys.executable) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        command = [*stdio_command(*options, python=python), "--transport", "http", "--port", str(self.port)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the MCP host server exited: {self.process.stderr.read()!r}")  # type: ignore[union-attr]
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the MCP host server did not listen in {START_SECONDS:.0f} s")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def structured(result: dict[str, object]) -> dict[str, object]:
    """The ``structuredContent`` of a ``tools/call`` result in its JSON form."""
    content = result.get("structuredContent")
    assert isinstance(content, dict), result
    return content
