"""The asked phrase of "X of Y": when most of its words are used by no source, a route that
mentions none of them is no answer (it would answer about Y, not X), so the plan refuses and
the refusal names X; whole-record questions and matched asked words are still answered."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import (
    EndpointSpec,
    FieldSpec,
    NoRouteError,
    PlanRequest,
    SchemaRouter,
    ToolCall,
    ToolSpec,
)

pytestmark = pytest.mark.anyio


def _input(name: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {name: {"type": "string"}},
        "required": [name],
        "additionalProperties": False,
    }


def library_router() -> SchemaRouter:
    """An article by its id, and drugs (by name) beside molecules with a ``molecular_type``."""
    router = SchemaRouter()
    endpoints = [
        EndpointSpec(
            name="getArticleByCoreId",
            description="Get an article by its CORE id. Returns the article's metadata.",
            keywords=["articles"],
            input_schema=_input("coreId"),
            fields=[FieldSpec(name=n) for n in ("title", "authors", "doi", "year")],
            read_only=True,
        ),
        EndpointSpec(
            name="getDrugs",
            description="Get drugs by name.",
            keywords=["drugs"],
            input_schema=_input("name"),
            fields=[FieldSpec(name=n) for n in ("chembl_id", "full_mwt", "canonical_smiles")],
            read_only=True,
        ),
        EndpointSpec(
            name="getMolecules",
            description="Get molecules by ChEMBL id.",
            keywords=["molecules"],
            input_schema=_input("moleculeChemblId"),
            fields=[FieldSpec(name=n) for n in ("molecular_type", "max_phase")],
            read_only=True,
        ),
    ]
    router.register(ToolSpec(name="lib", provider="lib", access_mode="openapi", endpoints=endpoints))
    return router


def test_a_phrase_no_source_uses_is_not_answered_with_the_subjects_record() -> None:
    plan = library_router().plan(
        PlanRequest(query="altmetric attention score of article 82141425", arguments={"coreId": "82141425"})
    )
    assert plan.primary is None


def test_the_route_left_out_says_it_mentions_nothing_asked() -> None:
    plan = library_router().plan(
        PlanRequest(query="patent expiry date of the drug imatinib", arguments={"name": "imatinib"})
    )
    reasons = {r.access_path: r.reason for r in plan.rejected}
    assert "mentions nothing of 'patent expiry date'" in reasons["lib.getDrugs"]


async def test_the_refusal_names_the_phrase_asked() -> None:
    router = library_router()

    async def answer(call: ToolCall) -> list[dict[str, Any]]:
        return [{"title": "Deep learning", "doi": "10.1038/nature14539"}]

    router.bind("lib", answer)
    request = PlanRequest(
        query="altmetric attention score of article 82141425", arguments={"coreId": "82141425"}
    )
    with pytest.raises(NoRouteError) as caught:
        await router.invoke(request)
    assert "altmetric attention score" in caught.value.unmatched


def test_an_asked_word_the_route_names_is_answered() -> None:
    plan = library_router().plan(
        PlanRequest(query="title of article 82141425", arguments={"coreId": "82141425"})
    )
    assert plan.primary is not None and plan.primary.endpoint == "getArticleByCoreId"


def test_a_question_for_the_whole_record_is_answered() -> None:
    plan = library_router().plan(
        PlanRequest(query="details of article 82141425", arguments={"coreId": "82141425"})
    )
    assert plan.primary is not None and plan.primary.endpoint == "getArticleByCoreId"


def test_metadata_the_route_describes_is_answered() -> None:
    plan = library_router().plan(
        PlanRequest(query="metadata of article 82141425", arguments={"coreId": "82141425"})
    )
    assert plan.primary is not None and plan.primary.endpoint == "getArticleByCoreId"


def test_a_phrase_the_sources_mostly_use_is_still_answered() -> None:
    """ "molecular" is a word of another route's field: "molecular weight" may be a rewording
    of a field's name (``full_mwt``), so the drug's record answers, naming what matched nothing."""
    plan = library_router().plan(
        PlanRequest(query="molecular weight of the drug imatinib", arguments={"name": "imatinib"})
    )
    assert plan.primary is not None and plan.primary.endpoint == "getDrugs"
    assert "weight" in plan.unmatched


def test_explicit_fields_are_not_read_for_an_asked_phrase() -> None:
    plan = library_router().plan(
        PlanRequest(
            query="altmetric attention score of article 82141425",
            arguments={"coreId": "82141425"},
            fields=["title"],
        )
    )
    assert plan.primary is not None and plan.primary.endpoint == "getArticleByCoreId"


async def test_a_refusal_with_a_field_read_still_names_the_words_that_match_nothing() -> None:
    request = PlanRequest(query="expression of BRCA1 in TPM per title", arguments={"symbol": "BRCA1"})
    with pytest.raises(NoRouteError) as caught:
        await library_router().invoke(request)
    assert "no data source exposes 'expression'" in str(caught.value)
    assert "'tpm'" in str(caught.value)
