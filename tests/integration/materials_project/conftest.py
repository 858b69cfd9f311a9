"""The real Materials Project landscape, once per test session.

``mp_landscape``: the emmet-api MP server (its own venv) behind a fault proxy, MP's OPTIMADE
and OQMD (the OPTIMADE reference server), and the real ``MPRester``; started once (20-120 s)
and stopped at the end. ``mp_fault(mode)`` switches the proxy for one test (back to ``pass``
afterwards). ``landscape_router(**options)`` builds a fresh router over it.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import pytest

from cookbook.services.materials_project.environment import MPEnvironmentUnavailable, mp_python
from cookbook.services.materials_project.landscape import MPLandscape
from cookbook.services.materials_project.proxy import Mode
from schemarouter_integrations import SchemaRouter


def require_mp_environment() -> None:
    """Skip (a failure under ``CI=true``) when the MP server's venv is not there: ``make mp-venv``.

    Called at a test module's import it skips the whole module.
    """
    try:
        mp_python(create=False)
    except MPEnvironmentUnavailable as exc:
        message = f"the real MP landscape needs the MP API server's venv (make mp-venv): {exc}"
        if os.environ.get("CI") == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message, allow_module_level=True)


@pytest.fixture(scope="session")
def mp_landscape() -> Iterator[MPLandscape]:
    require_mp_environment()
    with MPLandscape() as landscape:
        yield landscape


@pytest.fixture
def mp_fault(mp_landscape: MPLandscape) -> Iterator[Callable[[Mode], None]]:
    """Set the MP API's fault mode for this test; it answers normally again afterwards."""
    yield mp_landscape.set_fault
    mp_landscape.set_fault("pass")


@pytest.fixture
async def landscape_router(
    mp_landscape: MPLandscape,
) -> AsyncIterator[Callable[..., Awaitable[SchemaRouter]]]:
    """``await landscape_router(**options)``: a new router over the landscape, closed after the test."""
    built: list[SchemaRouter] = []

    async def build(**options: Any) -> SchemaRouter:
        mp_landscape.set_fault("pass")
        router = await mp_landscape.build_router(**options)
        built.append(router)
        return router

    yield build
    for router in built:
        await router.aclose()
