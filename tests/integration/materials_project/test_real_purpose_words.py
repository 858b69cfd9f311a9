"""Purpose words, notations and negated words on the real Materials Project server (every
operation of its document registered, as a user registering it would): "describe the structure
of SnO2" is answered by the robocrystallographer's description, "Eg of GaN" by the summary's
band gap, "dissimilarity scores" by the similarity resource."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter
from tests.integration.materials_project.conftest import require_mp_environment

pytestmark = [pytest.mark.integration, pytest.mark.anyio, pytest.mark.timeout(900)]
require_mp_environment()

BuildRouter = Callable[..., Awaitable[SchemaRouter]]


async def every_operation(landscape_router: BuildRouter) -> SchemaRouter:
    return await landscape_router(routes=("mp_api",), operations=None)


async def test_describe_the_structure_is_answered_by_the_robocrystallographer_text(
    landscape_router: BuildRouter,
) -> None:
    router = await every_operation(landscape_router)
    result = await router.invoke(
        PlanRequest(query="describe the structure of SnO2", arguments={"material_ids": "mp-856"})
    )
    assert result.endpoint == "search_materials_robocrys__get"
    assert any("Rutile" in record.get("description", "") for record in result.records), result.records


async def test_eg_of_gan_is_the_summary_band_gap(landscape_router: BuildRouter) -> None:
    router = await every_operation(landscape_router)
    result = await router.invoke(PlanRequest(query="Eg of GaN", arguments={"formula": "GaN"}))
    assert result.endpoint == "search_materials_summary__get"
    assert all(isinstance(record.get("band_gap"), float) for record in result.records) and result.records


async def test_dissimilarity_scores_come_from_the_similarity_resource(landscape_router: BuildRouter) -> None:
    router = await every_operation(landscape_router)
    plan = router.plan(
        PlanRequest(
            query="dissimilarity scores between SnO2 and its nearest neighbours",
            arguments={"material_ids": "mp-856"},
        )
    )
    assert plan.primary is not None and plan.primary.endpoint == "search_materials_similarity__get"
