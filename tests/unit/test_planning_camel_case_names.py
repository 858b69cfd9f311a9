"""A camelCase name read whole: a question writes "UniProt", "PubChem" or "DataCite" as one
word where an operation's name and texts split it in two ("Uni", "Prot")."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter
from schemarouter_integrations._registry.words import camel_runs
from tests.support.openapi import DOC_URL, build, document, get, param

pytestmark = pytest.mark.anyio

IDS = {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}


def lookup(operation_id: str, summary: str) -> dict[str, Any]:
    item = get(operation_id, parameters=[param("rgdId", "path", required=True)], schema=IDS)
    item["get"]["summary"] = summary
    return item


def rgd_document() -> dict[str, Any]:
    """Two look-ups of an RGD object's ids, with the Rat Genome Database's own texts."""
    return document(
        {
            "/lookup/id/map/UniProt/{rgdId}": lookup(
                "getUniProtMappingUsingGET", "Translate an RGD ID to a UniProt ID"
            ),
            "/annotations/accId/{rgdId}": lookup(
                "getTermAccIdsUsingGET",
                "Returns a list ontology term accession IDs annotated to an rgd object",
            ),
        }
    )


async def test_a_camel_case_name_the_question_writes_whole_chooses_its_operation() -> None:
    spec, invoker, _ = await build({DOC_URL: rgd_document()}, provider="rgd")
    router = SchemaRouter()
    router.register(spec, invoker)
    plan = router.plan(PlanRequest("UniProt accession of gene 3001", arguments={"rgdId": 3001}))
    assert plan.primary is not None and plan.primary.endpoint == "getUniProtMappingUsingGET", plan.explain()
    assert "uniprot" not in plan.unmatched


def test_runs_of_two_or_three_camel_case_parts_are_read_whole() -> None:
    runs = dict(camel_runs("getUniProtMappingUsingGET"))
    assert runs["uniprot"] == ("uni", "prot")
    assert runs["uniprotmapping"] == ("uni", "prot", "mapping")
    assert "getuniprotmapping" not in runs  # four parts


def test_snake_case_and_single_words_give_no_runs() -> None:
    assert camel_runs("search_materials_summary__get") == ()
    assert camel_runs("Get a gene") == ()
