"""Fixtures shared by the integration tests (the real servers come from ``tests.servers.fixtures``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
from langsmith import Client

from schemarouter_integrations import SchemaRouter
from tests.servers.langsmith_capture import LangSmithCapture

TRACING_ENV = (
    "LANGSMITH_TRACING",
    "LANGCHAIN_TRACING_V2",
    "LANGSMITH_API_KEY",
    "LANGCHAIN_API_KEY",
    "LANGSMITH_ENDPOINT",
    "LANGCHAIN_ENDPOINT",
    "LANGSMITH_PROJECT",
    "LANGCHAIN_PROJECT",
)


@pytest.fixture
async def router() -> AsyncIterator[SchemaRouter]:
    """An empty router, closed (its HTTP client and store with it) after the test."""
    async with SchemaRouter() as router:
        yield router


@pytest.fixture
def tracing_client(langsmith_capture: LangSmithCapture, monkeypatch: pytest.MonkeyPatch) -> Iterator[Client]:
    """A real ``langsmith`` client posting to the loopback capture, flushed after the test.

    Tracing goes only where a test sends it: no LangSmith setting leaks in from the environment.
    """
    for name in TRACING_ENV:
        monkeypatch.delenv(name, raising=False)
    client: Client = langsmith_capture.client()
    yield client
    client.flush()
