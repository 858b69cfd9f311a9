"""Purpose words (``_planning/purpose.py``): a request verb whose noun names the record that
answers. "describe the layout of X" asks for a *description* of the layout: where a route's
records carry a ``description`` field, the field terms after the purpose word are its topic,
not the need. Without such a field the verb stays a request verb, as before.
"""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter
from schemarouter_integrations._planning.purpose import purpose_noun
from tests.support.openapi import DOC_URL, build, document, get, param

pytestmark = pytest.mark.anyio


def record(*names: str) -> dict[str, Any]:
    return {
        "type": "array",
        "items": {"type": "object", "properties": {n: {"type": "string"} for n in names}},
    }


def gardens_document(*, narrated: bool = True) -> dict[str, Any]:
    """A gardens API: a broad record of each garden (its ``layout`` among many fields) and,
    with *narrated*, a narrative record whose ``description`` is a text about the garden."""
    ids = [param("garden_ids")]
    paths: dict[str, Any] = {
        "/gardens/overview/": get(
            "search_gardens_overview",
            parameters=ids,
            schema=record("garden_id", "name", "layout", "area", "soil", "founded", "owner"),
        ),
    }
    if narrated:
        paths["/gardens/narrative/"] = get(
            "search_gardens_narrative", parameters=ids, schema=record("garden_id", "description", "author")
        )
    return document(paths)


async def router_of(doc: dict[str, Any]) -> SchemaRouter:
    spec, invoker, _ = await build({DOC_URL: doc}, provider="test")
    router = SchemaRouter()
    router.register(spec, invoker)
    return router


def primary(router: SchemaRouter, query: str, **arguments: Any) -> tuple[str | None, list[str]]:
    plan = router.plan(PlanRequest(query=query, arguments=arguments))
    return (plan.primary.endpoint if plan.primary is not None else None), plan.need


@pytest.mark.parametrize(
    ("word", "noun"),
    [
        ("describe", "description"),
        ("describes", "description"),
        ("described", "description"),
        ("describing", "description"),
        ("descriptions", "description"),
        ("subscription", ""),  # no request verb's noun
        ("layout", ""),
    ],
)
def test_a_request_verb_and_its_inflections_name_their_noun(word: str, noun: str) -> None:
    assert purpose_noun(word) == noun


async def test_describe_a_field_asks_for_the_record_whose_description_is_about_it() -> None:
    router = await router_of(gardens_document())
    assert primary(router, "describe the layout of Kew", garden_ids="g-1") == (
        "search_gardens_narrative",
        ["description"],
    )


async def test_a_written_description_of_a_field_reads_the_same_way() -> None:
    router = await router_of(gardens_document())
    assert primary(router, "text description of the layout", garden_ids="g-1") == (
        "search_gardens_narrative",
        ["description"],
    )


async def test_describe_reads_its_noun_only_once_a_route_has_that_field() -> None:
    router = await router_of(gardens_document(narrated=False))
    assert primary(router, "describe the layout of Kew", garden_ids="g-1") == (
        "search_gardens_overview",
        ["layout"],
    )
    narrated = await router_of(gardens_document())
    assert primary(narrated, "describe the layout of Kew", garden_ids="g-1")[1] == ["description"]


async def test_the_field_asked_before_the_purpose_word_stays_a_need() -> None:
    router = await router_of(gardens_document())
    _, need = primary(router, "owner and a description of the layout", garden_ids="g-1")
    assert "owner" in need and "layout" not in need


async def test_a_description_asked_for_answers_with_the_whole_describing_record() -> None:
    router = await router_of(gardens_document())
    plan = router.plan(PlanRequest(query="describe the layout of Kew", arguments={"garden_ids": "g-1"}))
    assert plan.primary is not None
    assert set(plan.primary.selected_fields) == {"garden_id", "description", "author"}
