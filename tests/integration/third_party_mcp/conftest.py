"""Command lines of MCP servers nobody on this project wrote, built once into ``.cache/``
(``tests/support/environments.py``; ``make host-envs``). Without them a test skips with the
reason, except under ``CI=true``, where it fails."""

from __future__ import annotations

import shutil

import pytest

from tests.support.environments import environment_or_skip, mcp_time_python, third_party_mcp_servers


def _npm_server(command: str) -> list[str]:
    installed = environment_or_skip(third_party_mcp_servers, "the npm MCP servers")
    node = shutil.which("node")
    assert node is not None  # the environment needed it
    return [node, str(installed / "node_modules" / ".bin" / command)]


@pytest.fixture(scope="session")
def everything_server() -> list[str]:
    """npm ``@modelcontextprotocol/server-everything`` over stdio."""
    return _npm_server("mcp-server-everything")


@pytest.fixture(scope="session")
def memory_server() -> list[str]:
    """npm ``@modelcontextprotocol/server-memory`` over stdio (its file: ``MEMORY_FILE_PATH``)."""
    return _npm_server("mcp-server-memory")


@pytest.fixture(scope="session")
def time_server() -> list[str]:
    """PyPI ``mcp-server-time`` over stdio, its local time zone UTC."""
    python = environment_or_skip(mcp_time_python, "mcp-server-time")
    return [str(python), "-m", "mcp_server_time", "--local-timezone", "UTC"]
