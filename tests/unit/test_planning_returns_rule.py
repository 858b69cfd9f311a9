"""Rank rule 4, *returns*: a path's segment after its identifier names what it returns.

``/catalog/work/{id}/authors`` returns authors of a work; ``/catalog/author/{id}/works``
returns works of an author. A question that says "works" while the first path names works
only as its subject's kind goes to the second (``_planning/returns.py``).
"""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter
from tests.support.openapi import DOC_URL, build, document, get, param

pytestmark = pytest.mark.anyio

LISTING = {"type": "array", "items": {"type": "object", "properties": {"title": {"type": "string"}}}}


def catalog() -> dict[str, Any]:
    path_id = [param("id", "path", required=True)]
    by_author = get("getAuthorWorks", parameters=path_id, schema=LISTING)
    by_author["get"]["summary"] = "Works written by an author"
    of_work = get("getWorkAuthors", parameters=path_id, schema=LISTING)
    of_work["get"]["summary"] = "Returns the authors of a literary work"
    return document({"/catalog/author/{id}/works": by_author, "/catalog/work/{id}/authors": of_work})


async def router_of(doc: dict[str, Any]) -> SchemaRouter:
    spec, invoker, _ = await build({DOC_URL: doc}, provider="test")
    router = SchemaRouter()
    router.register(spec, invoker)
    return router


async def test_the_operation_returning_what_is_asked_beats_one_about_it() -> None:
    router = await router_of(catalog())
    plan = router.plan(PlanRequest(query="literary works of Tolkien", arguments={"id": "OL26320A"}))
    assert plan.primary is not None and plan.primary.endpoint == "getAuthorWorks"
    assert plan.reasons[0].startswith("rank/returns: mp_api.getAuthorWorks over mp_api.getWorkAuthors")
