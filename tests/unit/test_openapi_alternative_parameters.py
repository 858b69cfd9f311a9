"""Required parameters a document offers as alternatives: each is marked required, and each
description says any combination of them will do ("Up to 5 seed values may be provided in any
combination of `seed_artists`, `seed_tracks` and `seed_genres`"). The input schema then asks for
at least one of them, so a request giving one is taken, and planning chooses the operation."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter
from tests.support.openapi import DOC_URL, build, document, get, param

pytestmark = pytest.mark.anyio

SUGGESTIONS = {
    "type": "object",
    "properties": {"books": {"type": "array", "items": {"type": "object", "properties": {"title": {}}}}},
}
CHOICE = "Up to 3 seeds in any combination of `seed_authors` and `seed_topics`."


def seeds(description: str) -> list[dict[str, Any]]:
    return [
        param("seed_authors", required=True, description=f"Authors to start from. {description}"),
        param("seed_topics", required=True, description=f"Topics to start from. {description}"),
        param("limit", schema={"type": "integer"}),
    ]


def library_document(description: str) -> dict[str, Any]:
    return document(
        {"/suggestions": get("getSuggestions", parameters=seeds(description), schema=SUGGESTIONS)}
    )


async def input_schema(description: str) -> dict[str, Any]:
    spec, _, _ = await build({DOC_URL: library_document(description)})
    endpoint = spec.endpoint("getSuggestions")
    assert endpoint is not None
    return endpoint.input_schema


async def test_parameters_offered_in_any_combination_need_only_one_of_them() -> None:
    schema = await input_schema(CHOICE)
    assert "required" not in schema
    assert schema["anyOf"] == [{"required": ["seed_authors"]}, {"required": ["seed_topics"]}]


async def test_required_parameters_that_offer_no_choice_stay_required() -> None:
    schema = await input_schema("Comma-separated.")
    assert schema["required"] == ["seed_authors", "seed_topics"]
    assert "anyOf" not in schema


async def test_a_request_giving_one_of_the_alternatives_is_planned_on_the_operation() -> None:
    spec, invoker, _ = await build({DOC_URL: library_document(CHOICE)}, provider="library")
    router = SchemaRouter()
    router.register(spec, invoker)
    plan = router.plan(
        PlanRequest("suggestions starting from author a1", arguments={"seed_authors": "a1", "limit": 5})
    )
    assert plan.primary is not None and plan.primary.endpoint == "getSuggestions"
