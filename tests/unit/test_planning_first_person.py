"""A question in the first person ("my playlists") asks about the API's current user: the
operation its document describes as the current (authenticated) user's comes first."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter
from tests.support.openapi import DOC_URL, build, document, get

pytestmark = pytest.mark.anyio

PLAYLIST = {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}
PLAYLISTS = {"type": "object", "properties": {"items": {"type": "array", "items": PLAYLIST}}}


def described(path_item: dict[str, Any], summary: str) -> dict[str, Any]:
    path_item["get"]["summary"] = summary
    return path_item


def playlists_document() -> dict[str, Any]:
    """Two playlist listings, modelled on Spotify's Web API."""
    return document(
        {
            "/me/playlists": described(
                get("get_a_list_of_current_users_playlists", schema=PLAYLISTS), "Get Current User's Playlists"
            ),
            "/browse/featured-playlists": described(
                get("get_featured_playlists", schema=PLAYLISTS), "Get Featured Playlists"
            ),
        }
    )


async def primary_of(query: str) -> str | None:
    spec, invoker, _ = await build({DOC_URL: playlists_document()}, provider="music")
    router = SchemaRouter()
    router.register(spec, invoker)
    primary = router.plan(PlanRequest(query)).primary
    return primary.endpoint if primary is not None else None


async def test_a_question_in_the_first_person_goes_to_the_current_users_operation() -> None:
    assert await primary_of("my playlists") == "get_a_list_of_current_users_playlists"


async def test_a_question_not_in_the_first_person_keeps_the_other_operation() -> None:
    assert await primary_of("featured playlists") == "get_featured_playlists"
