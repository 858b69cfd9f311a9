"""Natural questions over real science-data OpenAPI documents, with the operation that answers them.

Written before any of them was run through the router. For each question the right
operation was decided by reading the document (paths, summaries, parameters and response
schemas), not by asking the router; where two operations answer it equally (OpenAQ's v1 and
v2 listings), both are accepted. ``arguments`` are what a model passes with the question
(names as the document's parameters). ``records`` is where the records sit in the operation's
response, also read from the document (``None``: the body itself, a bare array or one
object). ``missing`` is what the chosen operation cannot serve of the question (the semantic
ids the plan must report in ``Plan.missing``).

The documents come from :mod:`tests.support.package_documents` (downloaded at test time).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Question:
    document: str
    query: str
    expected: tuple[str, ...]
    arguments: dict[str, Any] = field(default_factory=dict)
    records: tuple[str, ...] | None = None
    missing: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return f"{self.document.split('.')[0]}: {self.query}"


BRAF = "ENSG00000157764"
MARFAN = "MONDO:0007947"
FBN1 = "HGNC:3603"
BERLIN = {"latitude": "52.52", "longitude": "13.41"}

OPEN_TARGETS = [
    Question(
        "opentargets.json",
        "Which diseases are associated with this target?",
        ("getAssociationFilter",),
        {"target": BRAF},
    ),
    Question(
        "opentargets.json",
        "evidence linking the target to melanoma",
        ("getEvidenceFilter",),
        {"target": BRAF, "disease": "EFO_0000756"},
    ),
    Question("opentargets.json", "information about the target", ("getTargetByENSGID",), {"target": BRAF}),
    Question("opentargets.json", "details of the drug", ("getDrugByID",), {"DRUG_ID": "CHEMBL1201583"}),
    Question(
        "opentargets.json",
        "search for a disease or target called asthma",
        ("getSearch",),
        {"q": "asthma"},
    ),
    Question(
        "opentargets.json",
        "expression levels of the gene in tissues",
        ("getTargetExpressionByENSGID",),
        {"gene": BRAF},
    ),
    Question("opentargets.json", "list the therapeutic areas", ("getTherapeuticAreas",)),
    Question("opentargets.json", "statistics about the current data release", ("getDataStats",)),
]

_LATEST = ("latest_get_v2_latest_get", "latest_v1_get_v1_latest_get")
OPENAQ = [
    Question(
        "openaq.json",
        "latest PM2.5 measurements in Delhi",
        _LATEST,
        {"city": "Delhi", "parameter": "pm25"},
        ("results",),
    ),
    Question(
        "openaq.json",
        "air quality measurements in Paris in January 2023",
        ("measurements_get_v2_measurements_get", "measurements_get_v1_v1_measurements_get"),
        {"city": "Paris", "date_from": "2023-01-01", "date_to": "2023-01-31"},
    ),
    Question(
        "openaq.json",
        "monitoring locations in Germany",
        ("locations_get_v2_locations_get", "locationsv1_get_v1_locations_get"),
        {"country": "DE"},
        ("results",),
    ),
    Question(
        "openaq.json",
        "which cities have air quality data",
        ("cities_get_v2_cities_get", "cities_getv1_v1_cities_get"),
        {"country": "IN"},
        ("results",),
    ),
    Question(
        "openaq.json",
        "list the countries covered",
        ("countries_get_v2_countries_get", "countries_getv1_v1_countries_get"),
        records=("results",),
    ),
    Question(
        "openaq.json",
        "what pollutants are measured",
        ("parameters_get_v2_parameters_get", "parameters_getv1_v1_parameters_get"),
        records=("results",),
    ),
    Question(
        "openaq.json",
        "data sources of the platform",
        ("sources_get_v2_sources_get", "sources_v1_get_v1_sources_get"),
        records=("results",),
    ),
    Question(
        "openaq.json",
        "daily average PM10 in Chile",
        ("averages_v2_get_v2_averages_get",),
        {"country": "CL", "parameter": "pm10", "temporal": "day"},
        ("results",),
    ),
    Question(
        "openaq.json",
        "air quality projects",
        ("projects_get_v2_projects_get",),
        records=("results",),
    ),
]

_REGION = {"chr": "1", "start": 1_000_000, "stop": 2_000_000, "mapKey": 360}
RGD = [
    Question(
        "rgd.json",
        "gene record for the rat gene Lep",
        ("getGeneBySymbolUsingGET",),
        {"symbol": "Lep", "speciesTypeKey": 3},
    ),
    Question(
        "rgd.json",
        "genes in this region of chromosome 1",
        (
            "getGenesInRegionUsingGET",
            "getGenesByPositionUsingGET",
            "getMappedGenesByPositionUsingGET",
        ),
        _REGION,
    ),
    Question("rgd.json", "orthologs of this gene", ("getGeneOrthologsUsingGET",), {"rgdId": 2004}),
    Question(
        "rgd.json",
        "annotations of this RGD object",
        ("getAnnotationsByRgdIdUsingGET",),
        {"rgdId": 2004},
    ),
    Question(
        "rgd.json",
        "QTLs in this region of chromosome 1",
        ("getQtlListByPositionUsingGET", "getMappedQTLByPositionUsingGET"),
        _REGION,
    ),
    Question(
        "rgd.json",
        "translate this RGD ID to an NCBI Gene ID",
        ("getNCBIGeneMappingUsingGET",),
        {"rgdId": 2004},
    ),
    Question("rgd.json", "which gene types are available", ("getGeneTypesUsingGET",)),
    Question(
        "rgd.json",
        "pathways about insulin",
        ("searchPathwaysUsingGET",),
        {"searchString": "insulin"},
    ),
    Question(
        "rgd.json",
        "chromosomes of this assembly",
        ("getChromosomesByAssemblyUsingGET",),
        {"mapKey": 360},
    ),
]

MONARCH = [
    Question(
        "monarch.json",
        "genes associated with Marfan syndrome",
        ("get_disease_gene_associations",),
        {"id": MARFAN},
        ("associations",),
    ),
    Question(
        "monarch.json",
        "phenotypes of this disease",
        ("get_disease_phenotype_associations",),
        {"id": MARFAN},
        ("associations",),
    ),
    Question(
        "monarch.json",
        "diseases associated with the gene FBN1",
        ("get_gene_disease_associations",),
        {"id": FBN1},
        ("associations",),
    ),
    Question(
        "monarch.json",
        "homologs of this gene",
        ("get_gene_homolog_associations",),
        {"id": FBN1},
        ("associations",),
    ),
    Question(
        "monarch.json",
        "interactions of this gene",
        ("get_gene_interactions",),
        {"id": FBN1},
        ("associations",),
    ),
    Question(
        "monarch.json",
        "publications about this gene",
        ("get_gene_publication_associations",),
        {"id": FBN1},
        ("associations",),
    ),
    Question(
        "monarch.json",
        "variants associated with this disease",
        ("get_disease_variant_associations",),
        {"id": MARFAN},
        ("associations",),
    ),
    Question(
        "monarch.json",
        "genes expressed in the heart",
        ("get_anatomy_gene_associations",),
        {"id": "UBERON:0000948"},
        ("associations",),
    ),
    Question(
        "monarch.json",
        "what substances treat this disease",
        ("get_disease_substance_associations",),
        {"id": MARFAN},
    ),
]

CROSSBAR = [
    Question(
        "crossbar.json",
        "ChEMBL activities of aspirin",
        ("getActivitiesUsingGET",),
        {"moleculeChemblId": "CHEMBL25"},
        ("activities",),
    ),
    Question(
        "crossbar.json",
        "protein with this UniProt accession",
        ("getProteinsUsingGET",),
        {"accession": "P04637"},
        ("proteins",),
    ),
    Question(
        "crossbar.json",
        "drugs named aspirin",
        ("getDrugsUsingGET",),
        {"name": "aspirin"},
        ("drugs",),
    ),
    Question(
        "crossbar.json",
        "HPO phenotypes of the gene BRCA1",
        ("getHpoUsingGET",),
        {"genesymbol": "BRCA1"},
        ("hpo",),
    ),
    Question(
        "crossbar.json",
        "molecular interactions of TP53",
        ("getIntactUsingGET",),
        {"gene": "TP53"},
        ("interactions",),
    ),
    Question(
        "crossbar.json",
        "PubChem compounds with this InChIKey",
        ("getCompoundsUsingGET",),
        {"inchiKey": "BSYNRYMUTXBXSQ-UHFFFAOYSA-N"},
        ("compounds",),
    ),
    Question(
        "crossbar.json",
        "EFO diseases labelled asthma",
        ("getEFOUsingGET",),
        {"label": "asthma"},
        ("diseases",),
    ),
    Question(
        "crossbar.json",
        "ChEMBL assays of this target",
        ("getAssaysUsingGET",),
        {"targetChemblId": "CHEMBL203"},
        ("assays",),
    ),
]

# The nine Open-Meteo documents are registered together (one tool each): the question picks the API.
OPEN_METEO = [
    Question(
        "open-meteo",
        "hourly temperature forecast for Berlin",
        ("open_meteo_forecast.get_v1_forecast",),
        BERLIN,
    ),
    Question(
        "open-meteo",
        "what was the temperature in Berlin on 1 July 2010",
        ("open_meteo_historical_weather.get_v1_archive",),
        BERLIN | {"start_date": "2010-07-01", "end_date": "2010-07-01"},
    ),
    Question(
        "open-meteo",
        "PM2.5 air quality forecast for Berlin",
        ("open_meteo_air_quality.get_v1_air_quality",),
        BERLIN,
    ),
    Question(
        "open-meteo",
        "wave height off the coast of Portugal",
        ("open_meteo_marine.get_v1_marine",),
        {"latitude": "38.7", "longitude": "-9.5"},
    ),
    Question(
        "open-meteo",
        "river discharge forecast of the Rhine at Cologne",
        ("open_meteo_flood.get_v1_flood",),
        {"latitude": "50.94", "longitude": "6.96"},
    ),
    Question(
        "open-meteo",
        "climate change projections of daily maximum temperature",
        ("open_meteo_climate.get_v1_climate",),
        BERLIN,
    ),
    Question(
        "open-meteo",
        "ensemble forecast members of temperature",
        ("open_meteo_ensemble.get_v1_ensemble",),
        BERLIN,
    ),
    Question(
        "open-meteo",
        "seasonal forecast for the next months",
        ("open_meteo_seasonal.get_v1_seasonal",),
        BERLIN,
    ),
    Question(
        "open-meteo",
        "elevation of Mount Everest",
        ("open_meteo_elevation.get_v1_elevation",),
        {"latitude": "27.99", "longitude": "86.93"},
    ),
]

QUESTIONS: list[Question] = [*OPEN_TARGETS, *OPENAQ, *RGD, *MONARCH, *CROSSBAR, *OPEN_METEO]
