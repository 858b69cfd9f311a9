"""What an OpenAPI parameter's schema carries for planning: its example values (the
document's ``example``/``examples`` and the compact identifiers its description gives) and
the path segment before a path parameter; the model-facing schema of an argument several
operations take stays one schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter
from schemarouter_integrations._framework.merging import merge_schemas
from schemarouter_integrations.adapters._openapi.parameters import parameter_notes, segment_before


def _param(description: str, schema: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    return {
        "name": "id",
        "in": "path",
        "description": description,
        "schema": schema or {"type": "string"},
        **extra,
    }


def test_a_path_parameter_notes_the_segment_before_it() -> None:
    notes = parameter_notes({"type": "string"}, _param("id"), "/bioentity/disease/{id}/phenotypes")
    assert notes["x-path-segment"] == "disease"


def test_a_parameter_right_after_another_has_no_segment() -> None:
    assert segment_before("/gene/{gene_id}/{id}", "id") is None
    assert segment_before("/{id}", "id") is None


def test_the_identifiers_a_description_gives_become_examples() -> None:
    param = _param("CURIE identifier of disease, e.g. OMIM:605543, Orphanet:1934, DOID:678. Equivalent IDs")
    notes = parameter_notes({"type": "string"}, param, "/disease/{id}")
    assert notes["examples"] == ["OMIM:605543", "Orphanet:1934", "DOID:678"]


def test_a_link_in_a_description_is_no_example() -> None:
    param = _param("See https://example.org/ids:1 for the identifiers")
    assert "examples" not in parameter_notes({"type": "string"}, param, "/x/{id}")


def test_a_flag_s_description_gives_no_examples() -> None:
    param = _param("If true, excludes associations that involve IEAs (ECO:0000501)", {"type": "boolean"})
    assert "examples" not in parameter_notes({"type": "boolean"}, param, "/x/{id}")


def test_the_document_s_own_example_values_come_first() -> None:
    param = _param(
        "NCBI Taxonomy ID or name",
        examples={"human": {"value": "9606"}, "two": {"value": ["human", "house mouse"]}},
    )
    notes = parameter_notes({"type": "string"}, param, "/taxonomy/taxon/{id}")
    assert notes["examples"] == ["9606", "human", "house mouse"]


def test_a_schema_s_own_examples_are_kept() -> None:
    notes = parameter_notes({"type": "string", "examples": ["a"]}, _param("e.g. DOID:678"), "/x/{id}")
    assert notes["examples"] == ["a"]


def test_an_argument_whose_operations_differ_only_in_examples_and_segments_is_one_schema() -> None:
    disease = {"type": "string", "examples": ["DOID:678"], "x-path-segment": "disease", "description": "a"}
    gene = {"type": "string", "examples": ["NCBIGene:4750"], "x-path-segment": "gene"}
    assert merge_schemas([disease, gene]) == {"type": "string"}


def _search(operation_id: str, kind: str) -> dict[str, Any]:
    query = {"name": "query", "in": "path", "required": True, "description": "The search query"}
    ok = {"200": {"description": "results", "content": {"application/json": {"schema": {"type": "array"}}}}}
    return {
        "get": {
            "operationId": operation_id,
            "parameters": [{**query, "schema": {"type": kind}}],
            "responses": ok,
        }
    }


SEARCHES = {
    "openapi": "3.0.0",
    "info": {"title": "aggregator", "version": "1"},
    "paths": {
        "/articles/search/{query}": _search("searchArticles", "integer"),
        "/journals/search/{query}": _search("searchJournals", "string"),
    },
}


@pytest.mark.anyio
async def test_a_path_number_the_document_declares_as_text_elsewhere_takes_text(tmp_path: Path) -> None:
    path = tmp_path / "aggregator.json"
    path.write_text(json.dumps(SEARCHES))
    router = SchemaRouter()
    spec = await router.add_url(str(path), kind="openapi", name="agg", base_url="http://127.0.0.1:9")
    schema = spec.endpoint("searchArticles").input_schema  # type: ignore[union-attr]
    assert schema["properties"]["query"]["type"] == ["integer", "string"]
    plan = router.plan(PlanRequest(query="articles on deep learning", arguments={"query": "deep learning"}))
    assert plan.primary is not None and plan.primary.endpoint == "searchArticles"


def test_a_path_number_no_operation_declares_as_text_stays_a_number() -> None:
    param = {"name": "coreId", "in": "path", "schema": {"type": "integer"}}
    notes = parameter_notes({"type": "integer"}, param, "/articles/get/{coreId}", frozenset({"query"}))
    assert notes["type"] == "integer"
