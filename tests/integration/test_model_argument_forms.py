"""A model's arguments, written the way models write them, reach the route in the route's own
form: through the real LangChain tool, over the published documents of the evaluation corpus
served on loopback (NCBI Datasets, DataCite, CORE, OpenAQ)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import parse_qs

import pytest

from benchmarks.eval.corpus import CORPUS
from benchmarks.eval.server import CorpusServer
from benchmarks.eval.targets import OpenApiTarget
from schemarouter_integrations.langchain import SchemaRouterTool

pytestmark = pytest.mark.anyio
DOCUMENTS = ["ncbi-datasets", "datacite", "core", "openaq"]


@pytest.fixture(scope="module")
def corpus() -> Iterator[CorpusServer]:
    with CorpusServer(DOCUMENTS, CORPUS) as server:
        yield server


@pytest.fixture
async def tool(request: pytest.FixtureRequest, corpus: CorpusServer) -> AsyncIterator[SchemaRouterTool]:
    router = await OpenApiTarget(request.param, corpus).build()
    try:
        yield SchemaRouterTool(router=router)
    finally:
        await router.aclose()


async def ask(tool: SchemaRouterTool, args: dict[str, Any]) -> Any:
    return await tool.ainvoke({"type": "tool_call", "id": "call-1", "name": tool.name, "args": args})


def last_request(corpus: CorpusServer, doc: str) -> tuple[str, dict[str, list[str]]]:
    _doc, _method, path, query = [r for r in corpus.requests if r[0] == doc][-1]
    return path, parse_qs(query)


@pytest.mark.parametrize("tool", ["ncbi-datasets"], indirect=True)
async def test_one_gene_symbol_reaches_a_route_that_takes_a_list_of_symbols(
    tool: SchemaRouterTool, corpus: CorpusServer
) -> None:
    message = await ask(tool, {"query": "gene report for human BRCA1", "symbols": "BRCA1", "taxon": "human"})
    assert message.status != "error", message.content
    path, _ = last_request(corpus, "ncbi-datasets")
    assert path.startswith("/gene/symbol/BRCA1/taxon/human")


@pytest.mark.parametrize("tool", ["ncbi-datasets"], indirect=True)
async def test_one_assembly_accession_reaches_a_route_that_takes_a_list(
    tool: SchemaRouterTool, corpus: CorpusServer
) -> None:
    message = await ask(
        tool, {"query": "assembly report for GCF_000001405.40", "accessions": "GCF_000001405.40"}
    )
    assert message.status != "error", message.content
    path, _ = last_request(corpus, "ncbi-datasets")
    assert "/GCF_000001405.40/" in path + "/"


@pytest.mark.parametrize("tool", ["datacite"], indirect=True)
async def test_one_value_for_a_list_filter_is_sent_as_that_value(
    tool: SchemaRouterTool, corpus: CorpusServer
) -> None:
    message = await ask(tool, {"query": "datasets", "filters": {"resource_type_id": "dataset"}})
    assert message.status != "error", message.content
    _, query = last_request(corpus, "datacite")
    assert query["resource-type-id"] == ["dataset"]


@pytest.mark.parametrize("tool", ["datacite"], indirect=True)
async def test_an_enum_member_in_another_case_is_sent_in_the_documents_case(
    tool: SchemaRouterTool, corpus: CorpusServer
) -> None:
    message = await ask(
        tool, {"query": "repositories running Dataverse", "filters": {"software": "dataverse"}}
    )
    assert message.status != "error", message.content
    _, query = last_request(corpus, "datacite")
    assert query["software"] == ["Dataverse"]


@pytest.mark.parametrize("tool", ["datacite"], indirect=True)
async def test_a_value_no_enum_member_matches_is_still_refused_naming_the_members(
    tool: SchemaRouterTool,
) -> None:
    message = await ask(tool, {"query": "repositories", "filters": {"software": "zenodo-ish"}})
    assert message.status == "error"
    assert "filter 'software'" in message.content and "'Dataverse'" in message.content


@pytest.mark.parametrize("tool", ["core"], indirect=True)
async def test_a_sources_own_query_parameter_is_shown_by_another_name_that_says_what_it_is(
    tool: SchemaRouterTool,
) -> None:
    properties = tool.get_input_schema().model_json_schema()["properties"]
    assert "question" in properties["query"]["description"]
    assert "own `query` parameter" in properties["query_2"]["description"]


@pytest.mark.parametrize("tool", ["core"], indirect=True)
async def test_a_sources_query_parameter_is_taken_by_its_wire_name_inside_filters(
    tool: SchemaRouterTool, corpus: CorpusServer
) -> None:
    message = await ask(tool, {"query": "repositories about graphene", "filters": {"query": "graphene"}})
    assert message.status != "error", message.content
    path, _ = last_request(corpus, "core")
    assert path.endswith("/search/graphene")


@pytest.mark.parametrize("tool", ["core"], indirect=True)
async def test_a_sources_query_parameter_is_taken_by_its_shown_name(
    tool: SchemaRouterTool, corpus: CorpusServer
) -> None:
    message = await ask(tool, {"query": "repositories about graphene", "query_2": "graphene"})
    assert message.status != "error", message.content
    path, _ = last_request(corpus, "core")
    assert path.endswith("/search/graphene")


@pytest.mark.parametrize("tool", ["openaq"], indirect=True)
async def test_one_pollutant_reaches_the_measurements_route_that_takes_a_list(
    tool: SchemaRouterTool, corpus: CorpusServer
) -> None:
    args = {"query": "NO2 measurements in London", "city": "London", "parameter": "no2"}
    await ask(tool, args)  # what the served body holds is the loopback's; the request is the point
    path, query = last_request(corpus, "openaq")
    assert "measurements" in path and query["parameter"] == ["no2"]
