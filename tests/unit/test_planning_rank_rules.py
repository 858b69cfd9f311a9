"""The rank stage's rules on small registries and on the evaluation corpus's real documents.

Rule 3 (*broad record*): a subject's records searched by filters, told apart from a wider
record of the same subject by a shared identity field, go to the widest one unless the
question names the specialised resource; an operation that requires an argument (an id in
its path) answers about what that argument names and is no specialised record of a wider
one. Rule 4 (*operation words*): each word of an operation's name the request does not say
takes :data:`~schemarouter_integrations._planning.rank.UNREQUESTED_WEIGHT` off its score.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter
from schemarouter_integrations._planning.rank import UNREQUESTED_WEIGHT, name_penalty, said_forms
from tests.support.openapi import DOC_URL, build, document, get, param

pytestmark = pytest.mark.anyio

CORPUS = Path(__file__).resolve().parents[2] / "benchmarks" / "eval" / "corpus"


def record(*names: str) -> dict[str, Any]:
    """A listing of records with these string fields."""
    return {
        "type": "array",
        "items": {"type": "object", "properties": {n: {"type": "string"} for n in names}},
    }


SUMMARY_FIELDS = ("material_id", "formula_pretty", "structure", "density", "volume", "band_gap", "nsites")


def materials_document() -> dict[str, Any]:
    """Two collections of the same materials, modelled on MP's summary and phonon: the
    specialised one identifies its records by ``identifier``, not ``material_id``; both by
    the formula."""
    formula = [param("formula")]
    return document(
        {
            "/materials/summary/": get("search_summary", parameters=formula, schema=record(*SUMMARY_FIELDS)),
            "/materials/phonon/": get(
                "search_phonon",
                parameters=formula,
                schema=record("identifier", "formula_pretty", "structure", "phonon_dos"),
            ),
        }
    )


async def router_of(documents: dict[str, Any], **options: Any) -> SchemaRouter:
    spec, invoker, _ = await build(documents, provider="test", **options)
    router = SchemaRouter()
    router.register(spec, invoker)
    return router


def primary(router: SchemaRouter, query: str, **arguments: Any) -> str | None:
    plan = router.plan(PlanRequest(query=query, arguments=arguments))
    return plan.primary.endpoint if plan.primary is not None else None


async def test_a_specialised_record_sharing_only_the_formula_field_gives_way_to_the_broad_record() -> None:
    router = await router_of({DOC_URL: materials_document()})
    plan = router.plan(PlanRequest(query="the structure of Si", arguments={"formula": "Si"}))
    assert plan.primary is not None and plan.primary.endpoint == "search_summary"
    assert plan.reasons[0].startswith("rank/broad record: mp_api.search_summary over mp_api.search_phonon")
    assert plan.explain().splitlines()[0] == f"why: {plan.reasons[0]}"


async def test_a_question_naming_the_specialised_resource_still_goes_to_it() -> None:
    router = await router_of({DOC_URL: materials_document()})
    assert primary(router, "phonon structure of Si", formula="Si") == "search_phonon"


def artists_document() -> dict[str, Any]:
    """An artist and their albums by the artist's id: the albums' records are wider, and both
    identify their records by ``id`` and ``name``."""
    artist_id = [param("id", "path", required=True)]
    return document(
        {
            "/artists/{id}": get("getArtist", parameters=artist_id, schema=record("id", "name", "genres")),
            "/artists/{id}/albums": get(
                "getArtistAlbums",
                parameters=artist_id,
                schema=record("id", "name", "genres", "popularity", "release_date", "total_tracks"),
            ),
        }
    )


async def test_an_operation_requiring_an_id_is_no_specialised_record_of_a_wider_one() -> None:
    router = await router_of({DOC_URL: artists_document()})
    plan = router.plan(PlanRequest(query="genres of the artist", arguments={"id": "0TnOYISbd1XYRBk9myaseg"}))
    assert plan.primary is not None and plan.primary.endpoint == "getArtist"
    assert not any(r.startswith("rank/broad record") for r in plan.reasons)


def related_document() -> dict[str, Any]:
    """An artist and the artists related to them, with the same texts: the related listing's
    name repeats "artist", which the lexical score alone rewards."""
    artist_id = [param("id", "path", required=True)]
    fields = record("id", "name", "genres")
    artist = get("getArtist", parameters=artist_id, schema=fields)
    related = get("getArtistRelatedArtists", parameters=artist_id, schema=fields)
    artist["get"]["summary"] = related["get"]["summary"] = "Spotify catalog information about an artist."
    return document({"/artists/{id}": artist, "/artists/{id}/related-artists": related})


async def test_a_word_of_an_operation_name_the_question_does_not_say_counts_against_it() -> None:
    router = await router_of({DOC_URL: related_document()})
    plan = router.plan(PlanRequest(query="who is the artist", arguments={"id": "0TnOYISbd1XYRBk9myaseg"}))
    assert plan.primary is not None and plan.primary.endpoint == "getArtist"
    assert plan.reasons[0].startswith(
        "rank/operation words: mp_api.getArtist over mp_api.getArtistRelatedArtists"
    )


async def test_saying_the_operation_name_word_chooses_that_operation() -> None:
    router = await router_of({DOC_URL: related_document()})
    assert primary(router, "related artists", id="0TnOYISbd1XYRBk9myaseg") == "getArtistRelatedArtists"


def test_argument_names_and_word_forms_say_words_of_an_operation_name() -> None:
    said = said_forms([("tasks", "task")], frozenset({"project_gid"}))
    assert name_penalty("getTasksForProject", said) == 0.0
    assert name_penalty("getTaskCountsForProject", said) == UNREQUESTED_WEIGHT


# -- the evaluation corpus's real documents (benchmarks/eval/corpus/, with their sources)


async def corpus_router(name: str, **options: Any) -> SchemaRouter:
    router = SchemaRouter()
    path = CORPUS / name / "openapi.json"
    await router.add_url(str(path), kind="openapi", name=name, base_url="http://127.0.0.1:9", **options)
    return router


@pytest.fixture(scope="module")
async def spotify() -> SchemaRouter:
    return await corpus_router("spotify")


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


ARTIST = "0TnOYISbd1XYRBk9myaseg"


@pytest.mark.parametrize(
    ("query", "arguments", "endpoint"),
    [
        ("who is the artist 0TnOYISbd1XYRBk9myaseg", {"id": ARTIST}, "get_an_artist"),
        ("artists similar to Pitbull", {"id": ARTIST}, "get_an_artists_related_artists"),
        (
            "chapters of the audiobook 7iHfbu1YPACw6oZPAFJtqe",
            {"id": "7iHfbu1YPACw6oZPAFJtqe"},
            "get_audiobook_chapters",
        ),
        (
            "genres and popularity of artists 0TnOYISbd1XYRBk9myaseg and 3dBVyJ7JuOMt4GE9607Qin",
            {"ids": f"{ARTIST},3dBVyJ7JuOMt4GE9607Qin"},
            "get_multiple_artists",
        ),
    ],
)
async def test_spotify_questions_go_to_the_operation_of_what_they_ask(
    spotify: SchemaRouter, query: str, arguments: dict[str, Any], endpoint: str
) -> None:
    assert primary(spotify, query, **arguments) == endpoint


@pytest.mark.parametrize(
    ("document", "query", "arguments", "endpoint"),
    [
        ("asana", "tasks in project 1331", {"project_gid": "1331"}, "getTasksForProject"),
        ("asana", "describe project 1331", {"project_gid": "1331"}, "getProject"),
        (
            "asana",
            "how many tasks in project 1331 are completed",
            {"project_gid": "1331"},
            "getTaskCountsForProject",
        ),
        ("rgd", "what gene has RGD ID 3001", {"rgdId": 3001}, "getGeneByRgdIdUsingGET"),
        (
            "opentargets",
            "describe the target ENSG00000157764",
            {"target": "ENSG00000157764"},
            "getTargetByENSGID",
        ),
        ("openaq", "countries covered by OpenAQ", {}, "countries_get_v2_countries_get"),
    ],
)
async def test_corpus_questions_go_to_the_operation_their_words_name(
    document: str, query: str, arguments: dict[str, Any], endpoint: str
) -> None:
    router = await corpus_router(document)
    assert primary(router, query, **arguments) == endpoint


async def test_plan_reasons_are_built_when_first_read(monkeypatch: pytest.MonkeyPatch) -> None:
    from schemarouter_integrations._planning import planner, reasons

    calls: list[int] = []
    real = reasons.reasons

    def counting(*args: Any) -> list[str]:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(planner, "reasons", counting)
    router = await router_of({DOC_URL: materials_document()})
    plan = router.plan(PlanRequest(query="the structure of Si", arguments={"formula": "Si"}))
    assert calls == []
    assert plan.reasons[0].startswith("rank/broad record: ")
    assert plan.reasons == plan.model_dump()["reasons"]
    assert calls == [1]
