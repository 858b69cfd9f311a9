"""A term that labels a value the request gives ("UniProt accession P00533" with
``accession``) says which value the question is about, not a field it asks for."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter
from tests.support.openapi import DOC_URL, build, document, get, param

pytestmark = pytest.mark.anyio


def records(*names: str) -> dict[str, Any]:
    return {
        "type": "array",
        "items": {"type": "object", "properties": {n: {"type": "string"} for n in names}},
    }


def listing(operation_id: str, summary: str, *names: str) -> dict[str, Any]:
    item = get(operation_id, parameters=[param("accession")], schema=records(*names))
    item["get"]["summary"] = summary
    return item


def crossbar_document() -> dict[str, Any]:
    """Drugs and targets looked up by a UniProt accession, modelled on the Crossbar API."""
    return document(
        {
            "/drugs": listing(
                "getDrugsUsingGET", "drugs collected from Drugbank", "name", "targets", "uniprot_accession"
            ),
            "/targets": listing("getTargetsUsingGET", "Get ChEMBL targets", "target_chembl_id", "pref_name"),
        }
    )


async def primary_of(query: str) -> str | None:
    spec, invoker, _ = await build({DOC_URL: crossbar_document()}, provider="crossbar")
    router = SchemaRouter()
    router.register(spec, invoker)
    primary = router.plan(PlanRequest(query, arguments={"accession": "P00533"})).primary
    return primary.endpoint if primary is not None else None


async def test_a_term_labelling_the_value_given_is_not_a_needed_field() -> None:
    assert await primary_of("ChEMBL targets for the UniProt accession P00533") == "getTargetsUsingGET"


async def test_the_same_term_asked_for_stays_a_needed_field() -> None:
    assert await primary_of("UniProt accession of the targets of drugs for P00533") == "getDrugsUsingGET"
