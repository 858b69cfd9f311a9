"""On the real MP server with every operation registered: a formula or element name naming the
material its id gives is the subject, not a need (``_planning/named.py``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter
from tests.integration.materials_project.conftest import require_mp_environment

pytestmark = [pytest.mark.integration, pytest.mark.anyio, pytest.mark.timeout(900)]
require_mp_environment()

BuildRouter = Callable[..., Awaitable[SchemaRouter]]


def ask(query: str, **arguments: Any) -> PlanRequest:
    return PlanRequest(query=query, arguments=arguments, preferred_tools=["mp_api"])


async def test_the_authors_of_the_si_structure_come_from_its_provenance(
    landscape_router: BuildRouter,
) -> None:
    router = await landscape_router(routes=("mp_api",), operations=None)
    plan = router.plan(ask("who are the authors of the Si structure", material_ids="mp-149"))
    assert plan.primary is not None and plan.primary.endpoint == "search_materials_provenance__get"
    assert plan.unmatched == []


async def test_a_possessive_element_name_is_the_subject_of_a_text_description(
    landscape_router: BuildRouter,
) -> None:
    router = await landscape_router(routes=("mp_api",), operations=None)
    plan = router.plan(ask("text description of silicon's crystal structure", material_ids="mp-149"))
    assert plan.primary is not None and plan.primary.endpoint == "search_materials_robocrys__get"
    assert "silicons" not in plan.unmatched
