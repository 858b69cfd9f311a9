"""Arguments as evidence of the subject's kind: when several operations take the same
argument name (``id``), the value given and the word labelling it say which operation's
parameter it fits, as the document describes each parameter (its examples, its description,
the path segment before it)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter

pytestmark = pytest.mark.anyio

LISTING = {
    "200": {
        "description": "associations",
        "content": {
            "application/json": {
                "schema": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"subject": {"type": "string"}, "object": {"type": "string"}},
                    },
                }
            }
        },
    }
}


def _id(description: str) -> list[dict[str, Any]]:
    return [
        {
            "name": "id",
            "in": "path",
            "required": True,
            "description": description,
            "schema": {"type": "string"},
        }
    ]


def _get(operation_id: str, summary: str) -> dict[str, Any]:
    return {"get": {"operationId": operation_id, "summary": summary, "responses": LISTING}}


def _path(operation_id: str, summary: str, description: str) -> dict[str, Any]:
    return {**_get(operation_id, summary), "parameters": _id(description)}


def bioentity_document() -> dict[str, Any]:
    """Associations of cases, diseases, genes and phenotypes, each under its own path segment,
    as the Monarch Initiative's BioLink API describes them (some without examples)."""
    case = "CURIE identifier for a case"
    disease = "CURIE identifier of disease, e.g. OMIM:605543, DOID:678. Equivalent IDs can be used"
    gene = "CURIE identifier of gene, e.g. NCBIGene:4750"
    phenotype = "CURIE identifier of phenotype, e.g. HP:0007359"
    paths = {
        "/bioentity/case/{id}/phenotypes": _path("get_case_phenotypes", "Returns phenotypes of a case", case),
        "/bioentity/disease/{id}/phenotypes": _path(
            "get_disease_phenotypes", "Returns phenotypes of a disease", disease
        ),
        "/bioentity/disease/{id}/cases": _path(
            "get_disease_cases",
            "Returns cases of a disease",
            "CURIE identifier of disease, e.g. MONDO:0007103",
        ),
        "/bioentity/gene/{id}/phenotypes": _path("get_gene_phenotypes", "Returns phenotypes of a gene", gene),
        "/bioentity/gene/{id}/function": _path(
            "get_gene_function", "Returns function associations for a gene", "id, e.g. HGNC:3603"
        ),
        "/bioentity/function/{id}/genes": _path(
            "get_function_genes",
            "Returns genes associated with a function",
            "CURIE of a GO term, e.g. GO:0044598",
        ),
        "/bioentity/phenotype/{id}/diseases": _path(
            "get_phenotype_diseases", "Returns diseases associated with a phenotype", phenotype
        ),
        "/bioentity/case/{id}/diseases": _path("get_case_diseases", "Returns diseases of a case", case),
        "/ontology/term/{id}": _path(
            "get_ontology_term",
            "Returns meta data of an ontology term",
            "CURIE of a GO term, e.g. GO:0003677",
        ),
    }
    return {"openapi": "3.0.0", "info": {"title": "bioentities", "version": "1"}, "paths": paths}


def registry_document() -> dict[str, Any]:
    """DataCite's shape: DOIs, repositories and members, each read by an ``id`` that only the
    parameter's description tells apart."""
    record = {
        "200": {
            "description": "one record",
            "content": {
                "application/json": {
                    "schema": {
                        "type": "object",
                        "properties": {
                            name: {"type": "string"} for name in ("id", "name", "title", "created")
                        },
                    }
                }
            },
        }
    }

    def one(operation_id: str, description: str) -> dict[str, Any]:
        return {"get": {"operationId": operation_id, "responses": record}, "parameters": _id(description)}

    return {
        "openapi": "3.0.0",
        "info": {"title": "registry", "version": "1"},
        "paths": {
            "/dois/{id}": one("get_dois_id", "DOI"),
            "/clients/{id}": one("get_clients_id", "DataCite Repository account ID."),
            "/providers/{id}": one("get_providers_id", "DataCite Direct Member or Consortium account ID."),
        },
    }


async def _router(tmp_path: Path, name: str, document: dict[str, Any]) -> SchemaRouter:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(document))
    router = SchemaRouter()
    await router.add_url(str(path), kind="openapi", name=name, provider=name, base_url="http://127.0.0.1:9")
    return router


def _chosen(router: SchemaRouter, query: str, **arguments: Any) -> str | None:
    plan = router.plan(PlanRequest(query=query, arguments=arguments))
    return plan.primary.endpoint if plan.primary is not None else None


async def test_a_curie_prefix_the_disease_parameter_shows_chooses_the_disease_operation(
    tmp_path: Path,
) -> None:
    router = await _router(tmp_path, "bio", bioentity_document())
    assert _chosen(router, "phenotypes of Marfan syndrome", id="OMIM:154700") == "get_disease_phenotypes"


async def test_a_prefix_shown_on_another_operation_under_the_same_path_segment_counts(tmp_path: Path) -> None:
    # MONDO is shown only on /bioentity/disease/{id}/cases: the document shows the kind once
    router = await _router(tmp_path, "bio", bioentity_document())
    assert _chosen(router, "phenotypes of Marfan syndrome", id="MONDO:0007947") == "get_disease_phenotypes"


async def test_a_gene_identifier_chooses_the_gene_operation_whose_words_tie(tmp_path: Path) -> None:
    router = await _router(tmp_path, "bio", bioentity_document())
    assert _chosen(router, "phenotypes linked to FBN1", id="NCBIGene:2200") == "get_gene_phenotypes"


async def test_a_phenotype_identifier_chooses_the_phenotype_operation(tmp_path: Path) -> None:
    router = await _router(tmp_path, "bio", bioentity_document())
    assert _chosen(router, "which diseases present with arachnodactyly", id="HP:0001166") == (
        "get_phenotype_diseases"
    )


async def test_the_reasons_say_the_arguments_fit_the_chosen_operation(tmp_path: Path) -> None:
    router = await _router(tmp_path, "bio", bioentity_document())
    plan = router.plan(PlanRequest(query="phenotypes of Marfan syndrome", arguments={"id": "OMIM:154700"}))
    assert any(
        "over bio.get_case_phenotypes" in reason and "examples or descriptions fit" in reason
        for reason in plan.reasons
    )


async def test_the_question_s_words_still_choose_over_the_value_s_shape(tmp_path: Path) -> None:
    # HP: is a phenotype prefix, but the question asks about the ontology term
    router = await _router(tmp_path, "bio", bioentity_document())
    assert _chosen(router, "describe the ontology term HP:0001166", id="HP:0001166") == "get_ontology_term"


async def test_a_value_s_shape_never_makes_an_operation_a_candidate(tmp_path: Path) -> None:
    router = await _router(tmp_path, "bio", bioentity_document())
    plan = router.plan(
        PlanRequest(query="prevalence of Marfan syndrome in Europe", arguments={"id": "OMIM:154700"})
    )
    assert plan.primary is None
    assert "prevalence" in plan.unmatched


async def test_the_word_labelling_a_written_value_chooses_the_parameter_it_describes(tmp_path: Path) -> None:
    router = await _router(tmp_path, "registry", registry_document())
    assert _chosen(router, "details of the member tib", id="tib") == "get_providers_id"
    assert _chosen(router, "describe the repository datacite.datacite", id="datacite.datacite") == (
        "get_clients_id"
    )


async def test_a_word_labelling_the_value_is_not_unmatched_when_the_parameter_names_it(
    tmp_path: Path,
) -> None:
    router = await _router(tmp_path, "registry", registry_document())
    plan = router.plan(PlanRequest(query="details of the member tib", arguments={"id": "tib"}))
    assert plan.unmatched == []
