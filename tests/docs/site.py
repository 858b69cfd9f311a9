"""The documentation site, built once per test session with ``mkdocs build --strict``."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.docs.blocks import ROOT, clean_environment

MKDOCS = Path(sys.executable).parent / "mkdocs"
PUBLIC_MODULES = (
    "schemarouter_integrations",
    "schemarouter_integrations.events",
    "schemarouter_integrations.errors",
    "schemarouter_integrations.stores",
    "schemarouter_integrations.adapters",
    "schemarouter_integrations.config",
    "schemarouter_integrations.langchain",
    "schemarouter_integrations.llamaindex",
    "schemarouter_integrations.mcp",
    "schemarouter_integrations.otel",
    "schemarouter_integrations.testing",
)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """``mkdocs build --strict`` into a temporary folder; the build's errors fail the test."""
    site = tmp_path_factory.mktemp("site") / "site"
    done = subprocess.run(
        [str(MKDOCS), "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**clean_environment(), "NO_MKDOCS_2_WARNING": "1"},
        timeout=280,
    )
    assert done.returncode == 0, done.stderr[-5000:]
    yield site
