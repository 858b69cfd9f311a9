"""Pronouns as evidence: a question in the first person ("my playlists") asks about the API's
current user, so the operation its document describes as the current (authenticated) user's
comes first; a question asking *who* asks for people, so the operation listing a team's users
comes before the team's own record."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter
from tests.support.openapi import DOC_URL, build, document, get, param

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


TEAM = {"type": "object", "properties": {"gid": {"type": "string"}, "name": {"type": "string"}}}
USERS = {"type": "array", "items": {"type": "object", "properties": {"gid": {"type": "string"}}}}


def teams_document() -> dict[str, Any]:
    """A team's record and its users, modelled on Asana's API."""
    team_gid = [param("team_gid", "path", required=True)]
    return document(
        {
            "/teams/{team_gid}": described(get("getTeam", parameters=team_gid, schema=TEAM), "Get a team"),
            "/teams/{team_gid}/users": described(
                get("getUsersForTeam", parameters=team_gid, schema=USERS), "Get users in a team"
            ),
        }
    )


async def team_primary(query: str) -> str | None:
    spec, invoker, _ = await build({DOC_URL: teams_document()}, provider="work")
    router = SchemaRouter()
    router.register(spec, invoker)
    primary = router.plan(PlanRequest(query, arguments={"team_gid": "15"})).primary
    return primary.endpoint if primary is not None else None


async def test_a_question_asking_who_goes_to_the_operation_listing_people() -> None:
    assert await team_primary("who is on team 15") == "getUsersForTeam"


async def test_a_question_about_the_thing_itself_keeps_its_record() -> None:
    assert await team_primary("name of team 15") == "getTeam"


AREAS = {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}}}
STATS = {
    "type": "object",
    "properties": {"associations": {"type": "integer"}, "evidences": {"type": "integer"}},
}


def release_document() -> dict[str, Any]:
    """Two listings about a data release, with Open Targets' own texts."""
    areas = described(
        get("getTherapeuticAreas", schema=AREAS),
        "Get the list of therapeutic areas about the current data release",
    )
    areas["get"]["description"] = "Returns the list of therapeutic areas for the current data release"
    stats = described(get("getDataStats", schema=STATS), "Get statistics about the current data release")
    stats["get"]["description"] = "Returns the number of associations and evidences, divided by datasource."
    paths = {"/platform/public/utils/therapeuticareas": areas, "/platform/public/utils/stats": stats}
    for name in ("target", "disease", "drug", "evidence", "association", "version"):  # the API's other parts
        paths[f"/platform/public/{name}"] = described(
            get(f"get{name.title()}", schema=AREAS), f"Get a {name}"
        )
    return document(paths)


async def release_primary(query: str) -> str | None:
    spec, invoker, _ = await build({DOC_URL: release_document()}, provider="release")
    router = SchemaRouter()
    router.register(spec, invoker)
    primary = router.plan(PlanRequest(query)).primary
    return primary.endpoint if primary is not None else None


async def test_a_question_asking_how_many_goes_to_the_operation_counting() -> None:
    assert await release_primary("how many targets and diseases are in the current release") == "getDataStats"


async def test_a_question_asking_for_the_list_keeps_the_listing() -> None:
    assert await release_primary("therapeutic areas of the current release") == "getTherapeuticAreas"


async def test_a_request_verb_before_me_is_not_the_first_person() -> None:
    # "show me" only asks: the question is about the featured playlists, not the asker's
    assert await primary_of("show me the featured playlists") == "get_featured_playlists"


async def test_me_after_a_preposition_is_the_first_person() -> None:
    assert await primary_of("playlists made by me") == "get_a_list_of_current_users_playlists"


KEYS = {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}
STATUS = {"type": "object", "properties": {"healthy": {"type": "boolean"}}}


def service_document() -> dict[str, Any]:
    """A registry service's API keys and its liveness check (no field names its status)."""
    return document(
        {
            "/credentials/api-keys": described(
                get("get_api_keys", schema=KEYS), "Return a list of API keys for the account"
            ),
            "/ping": described(get("get_ping", schema=STATUS), "Return the current status of the API"),
        }
    )


async def service_primary(query: str) -> str | None:
    spec, invoker, _ = await build({DOC_URL: service_document()}, provider="registry")
    router = SchemaRouter()
    router.register(spec, invoker)
    primary = router.plan(PlanRequest(query)).primary
    return primary.endpoint if primary is not None else None


async def test_a_question_whether_the_service_is_up_goes_to_its_status_operation() -> None:
    assert await service_primary("is the registry API up") == "get_ping"


async def test_a_question_about_the_api_itself_keeps_the_operation_its_words_match() -> None:
    assert await service_primary("list the API keys") == "get_api_keys"
