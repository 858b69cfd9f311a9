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


async def _no_real_dns(host: str) -> list[str]:
    """The tests' stand-in for the system resolver: they never ask real DNS."""
    if host == "localhost":
        return ["127.0.0.1", "::1"]
    raise OSError(f"the tests never resolve {host!r} through real DNS; pass resolver= to SchemaRouter")


@pytest.fixture(autouse=True)
def no_real_dns(monkeypatch: pytest.MonkeyPatch) -> None:
    """The router's network check resolves names with the system's resolver unless given one;
    here that resolver knows only ``localhost``, so no test sends a DNS query. A name the
    check cannot resolve is let through when the application gave it (the request fails as
    it would have) and refused when a document named it."""
    monkeypatch.setattr("schemarouter_integrations.adapters._network.system_resolver", _no_real_dns)
