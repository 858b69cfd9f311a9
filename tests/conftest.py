"""Shared test configuration: the anyio backend, the real-server fixtures and the fixtures
that unit and integration tests both use."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tests.support.llamaindex import CapturingHandler

pytest_plugins = ["tests.servers.fixtures"]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def captured() -> Iterator[CapturingHandler]:
    """Every LlamaIndex instrumentation event on the root dispatcher during the test."""
    from tests.support.llamaindex import capturing  # only the tests that ask need llama_index

    with capturing() as handler:
        yield handler
