"""Fixtures shared by the unit tests (plain helpers live in ``tests/support``)."""

from __future__ import annotations

import pytest

from schemarouter_integrations import SchemaRouter
from tests.support.fakes import FakeClock
from tests.support.seed import seed_router


@pytest.fixture
def router() -> SchemaRouter:
    """The seed's four routes on a fake clock, with the primary (mp_api, the native Materials
    Project API) down."""
    router, _ = seed_router(SchemaRouter(clock=FakeClock()), down=("mp_api",))
    return router
