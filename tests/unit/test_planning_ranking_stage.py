"""The ranking stage: among the operations that serve the need, the one that holds the answer.

Over the Materials Project API's own document (``tests/support/emmet_document.py``): the
summary is the subject's broad record, the electronic-structure and thermo resources are
specialised records of the same materials (as on MP, they hold fewer materials), so a
question goes to the summary unless it names the specialised resource.
"""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter
from tests.support.emmet_document import ELECTRONIC, LANDSCAPE, SUMMARY, ask, emmet_router
from tests.support.openapi import DOC_URL, build, document, get, param

pytestmark = pytest.mark.anyio


async def primary_of(query: str, operations: Any = LANDSCAPE, **arguments: Any) -> str | None:
    router = await emmet_router(operations)
    primary = router.plan(ask(query, **arguments)).primary
    return primary.endpoint if primary is not None else None


@pytest.mark.parametrize(
    ("query", "arguments"),
    [
        ("materials with elements Ga and As and their band gaps", {"elements": ["Ga", "As"]}),
        ("band gap of materials with elements Ga and As", {"elements": ["Ga", "As"]}),
        ("band gaps of these material ids", {"material_ids": ["mp-149", "mp-2534"]}),
        ("band gap of Si", {"formula": "Si"}),
        ("structures containing Ga and As", {"elements": ["Ga", "As"]}),
        ("structures containing Fe and O", {"elements": ["Fe", "O"]}),
        ("number of sites in the Si cell", {"formula": "Si"}),
    ],
)
async def test_a_question_a_specialised_resource_also_serves_goes_to_the_subjects_broad_record(
    query: str, arguments: dict[str, Any]
) -> None:
    assert await primary_of(query, **arguments) == SUMMARY


async def test_a_question_naming_the_specialised_resource_goes_to_it() -> None:
    assert await primary_of("electronic structure of Si", formula="Si") == ELECTRONIC


async def test_the_broad_record_wins_over_every_registered_specialised_resource() -> None:
    assert await primary_of("band gap of Si", operations=None, formula="Si") == SUMMARY


async def test_plan_reasons_name_the_broad_record_rule_and_explain_prints_them_first() -> None:
    router = await emmet_router(LANDSCAPE)
    plan = router.plan(ask("band gap of Si", formula="Si"))
    assert plan.reasons, plan.explain()
    assert plan.reasons[0].startswith(
        f"rank/broad record: mp_api.{SUMMARY} over mp_api.{ELECTRONIC}: it is the subject's broad record"
    )
    assert plan.explain().splitlines()[0] == f"why: {plan.reasons[0]}"


async def test_plan_reasons_name_a_check_the_other_candidate_failed() -> None:
    router = await emmet_router(LANDSCAPE)
    plan = router.plan(ask("materials with a band gap between 1 and 2 eV", band_gap_min=1, band_gap_max=2))
    assert any(r.startswith("check/arguments: ") and "does not accept" in r for r in plan.reasons)


GENE = {"type": "object", "properties": {"symbol": {"type": "string"}, "gene_id": {"type": "integer"}}}


def gene_document(*, deprecated: bool) -> dict[str, Any]:
    """Two operations answering a gene symbol question, modelled on NCBI Datasets v2: the
    old path is deprecated in favour of the dataset report."""
    old = get(
        "gene_metadata_by_tax_and_symbol",
        parameters=[param("symbols", "path", required=True), param("taxon", "path", required=True)],
        schema={"type": "array", "items": GENE},
    )
    old["get"]["deprecated"] = deprecated
    current = get(
        "gene_dataset_report_by_tax_and_symbol",
        parameters=[param("symbols", "path", required=True), param("taxon", "path", required=True)],
        schema={"type": "array", "items": GENE},
    )
    return document(
        {
            "/gene/symbol/{symbols}/taxon/{taxon}": old,
            "/gene/symbol/{symbols}/taxon/{taxon}/dataset_report": current,
        }
    )


async def gene_router(*, deprecated: bool) -> SchemaRouter:
    """A router over :func:`gene_document`."""
    spec, invoker, _ = await build({DOC_URL: gene_document(deprecated=deprecated)}, provider="ncbi")
    router = SchemaRouter()
    router.register(spec, invoker)
    return router


QUESTION = PlanRequest("gene metadata for BRCA1", arguments={"symbols": "BRCA1", "taxon": "human"})


async def test_a_deprecated_operation_comes_after_its_current_replacement() -> None:
    router = await gene_router(deprecated=True)
    plan = router.plan(QUESTION)
    assert plan.primary is not None
    assert plan.primary.endpoint == "gene_dataset_report_by_tax_and_symbol"
    assert plan.reasons[0].startswith("rank/deprecated: ")


async def test_the_same_operation_unmarked_wins_by_its_words() -> None:
    router = await gene_router(deprecated=False)
    plan = router.plan(QUESTION)
    assert plan.primary is not None
    assert plan.primary.endpoint == "gene_metadata_by_tax_and_symbol"
    assert plan.reasons[0].startswith("rank/operation words: ")


async def test_a_deprecated_operation_answers_where_no_current_one_serves() -> None:
    documents = {DOC_URL: gene_document(deprecated=True)}
    spec, invoker, _ = await build(documents, provider="ncbi", operations=["gene_metadata_by_tax_and_symbol"])
    router = SchemaRouter()
    router.register(spec, invoker)
    plan = router.plan(QUESTION)
    assert plan.primary is not None and plan.primary.endpoint == "gene_metadata_by_tax_and_symbol"


async def test_a_question_naming_a_specialised_resource_the_broad_record_has_as_a_field_goes_to_it() -> None:
    # the summary has an ``xas`` field; the XAS resource reads "XAS" as its own resource
    assert (
        await primary_of("XAS spectra of BaH4O3", operations=None, formula="BaH4O3")
        == "search_materials_xas__get"
    )


DOS = "search_materials_electronic_structure_dos__get"


async def test_a_needed_field_with_an_operation_of_its_own_under_a_specialised_resource_goes_to_it() -> None:
    # the summary and the electronic-structure resource both have a ``dos`` field; the
    # document serves densities of states at ``electronic_structure/dos``, under the latter
    router = await emmet_router((SUMMARY, ELECTRONIC, DOS))
    plan = router.plan(ask("DOS of mp-13", material_ids="mp-13"))
    assert plan.primary is not None and plan.primary.endpoint == ELECTRONIC, plan.explain()
    assert plan.reasons[0].startswith(f"rank/broad record: mp_api.{ELECTRONIC} over mp_api.{SUMMARY}: ")
    assert "operation of its own" in plan.reasons[0]


async def test_without_the_sub_resource_the_same_field_goes_to_the_broad_record() -> None:
    assert await primary_of("DOS of mp-13", operations=(SUMMARY, ELECTRONIC), material_ids="mp-13") == SUMMARY


async def test_a_field_without_a_sub_resource_stays_on_the_broad_record_beside_one() -> None:
    assert (
        await primary_of("band gap of mp-13", operations=(SUMMARY, ELECTRONIC, DOS), material_ids="mp-13")
        == SUMMARY
    )


async def test_a_field_named_by_the_specialised_resources_own_words_stays_on_the_broad_record() -> None:
    # "structure" is a word of ``electronic_structure`` itself, so of its sub-resource too
    operations = (SUMMARY, ELECTRONIC, DOS)
    assert await primary_of("the structure of Si", operations=operations, formula="Si") == SUMMARY


def _materials(*names: str) -> dict[str, Any]:
    properties = {name: {"type": "string"} for name in ("formula_pretty", "material_id", *names)}
    return {"type": "array", "items": {"type": "object", "properties": properties}}


def _listing(operation_id: str, *names: str, by: str = "material_ids") -> dict[str, Any]:
    return get(operation_id, parameters=[param(by)], schema=_materials(*names))


def sub_resources_document() -> dict[str, Any]:
    """A materials API laid out as MP's: a summary, two specialised resources and operations
    under them (the ``dos`` records, and a structure matcher that is no ``structure`` record)."""
    return document(
        {
            "/materials/summary/": _listing("search_summary", "structure", "dos", "band_gap", "density"),
            "/materials/electronic_structure/": _listing(
                "search_electronic_structure", "structure", "dos", "band_gap"
            ),
            "/materials/electronic_structure/dos/": _listing(
                "search_electronic_structure_dos", "dos", by="projection"
            ),
            "/materials/core/": _listing("search_core", "structure", "density"),
            "/materials/core/match_structure/": _listing(
                "search_core_match_structure", "structure", by="projection"
            ),
        }
    )


async def sub_resources_primary(query: str) -> str | None:
    spec, invoker, _ = await build({DOC_URL: sub_resources_document()}, provider="materials")
    router = SchemaRouter()
    router.register(spec, invoker)
    primary = router.plan(PlanRequest(query, arguments={"material_ids": "mp-149"})).primary
    return primary.endpoint if primary is not None else None


async def test_a_sub_resource_named_after_the_needed_field_names_its_parent_resource() -> None:
    assert await sub_resources_primary("DOS of mp-149") == "search_electronic_structure"


async def test_an_operation_under_a_resource_that_only_mentions_the_field_names_nothing() -> None:
    # ``core/match_structure`` adds "match" as well: it matches structures, it is not their record
    assert await sub_resources_primary("structure of mp-149") == "search_summary"
