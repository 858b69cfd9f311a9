"""A noun made from a verb, asked of the real Materials Project landscape, reads as the field
that verb names (``-ition`` -> ``-e``): "decomposition" is ``decomposes_to``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter
from tests.integration.materials_project.conftest import require_mp_environment

pytestmark = [pytest.mark.integration, pytest.mark.anyio, pytest.mark.timeout(900)]
require_mp_environment()

BuildRouter = Callable[..., Awaitable[SchemaRouter]]


async def test_decomposition_products_are_the_decomposes_to_records(landscape_router: BuildRouter) -> None:
    router = await landscape_router()
    request = PlanRequest(
        query="decomposition products of Fe3O4",
        arguments={"formula": "Fe3O4"},
        preferred_tools=["mp_api"],
        fallback_scope="cross_provider",
    )
    plan = router.plan(request)
    assert plan.need == ["decomposes_to"]
    result = await router.invoke(request)
    products = [p for record in result.records for p in record.get("decomposes_to") or []]
    assert products and all("formula" in product for product in products), result.records
