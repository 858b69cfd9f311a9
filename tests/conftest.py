"""Shared test configuration: the anyio backend and the real-server fixtures."""

from __future__ import annotations

import pytest

pytest_plugins = ["tests.servers.fixtures"]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
