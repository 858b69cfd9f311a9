"""Fixtures of the cross-host tests: the router's MCP server over streamable HTTP
(``tests/support/hosts.py``), one per package run."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.hosts import HttpServer


@pytest.fixture(scope="package")
def http_server() -> Iterator[HttpServer]:
    server = HttpServer()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="package")
def underscore_server() -> Iterator[HttpServer]:
    """The server of an MP-like landscape whose parameters start with ``_`` (``_limit``, ``_skip``)."""
    server = HttpServer("--underscore")
    try:
        yield server
    finally:
        server.stop()
