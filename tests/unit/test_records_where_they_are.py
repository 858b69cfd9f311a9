"""Records where they are: a single-object answer is one record unless its array is the
operation's resource; fields inside a record's objects are fields, by a dotted or leaf name,
projected and returned like top-level ones (Spotify's and TMDB's published documents,
httpx.MockTransport)."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter
from tests.support.openapi import DOC_URL, FakeApi, build, document, get
from tests.support.restbench import restbench_document

pytestmark = pytest.mark.anyio

API = "http://api.test/v1"
ME = {
    "id": "smedjan",
    "display_name": "JM Wizzler",
    "country": "SE",
    "images": [{"url": "https://i.scdn.co/image/a", "height": 300, "width": 300}],
    "followers": {"href": None, "total": 66},
}


@pytest.fixture(scope="module")
def spotify() -> dict[str, Any]:
    return restbench_document("spotify")


@pytest.fixture(scope="module")
def tmdb() -> dict[str, Any]:
    return restbench_document("tmdb")


async def records_path_of(document: dict[str, Any], endpoint: str) -> list[str] | None:
    spec, _, _ = await build({DOC_URL: document}, base_url=API)
    found = spec.endpoint(endpoint)
    assert found is not None
    return found.records_path


@pytest.mark.parametrize("endpoint", ["get_current_users_profile", "get_an_artist", "get_playlist"])
async def test_a_spotify_resource_with_images_is_one_record_not_its_images(
    spotify: dict[str, Any], endpoint: str
) -> None:
    spec, _, _ = await build({DOC_URL: spotify}, base_url=API)
    found = spec.endpoint(endpoint)
    assert found is not None
    assert found.records_path is None
    assert {"id", "images"} <= {f.name for f in found.fields}


async def test_a_spotify_track_is_one_record_not_its_artists(spotify: dict[str, Any]) -> None:
    spec, _, _ = await build({DOC_URL: spotify}, base_url=API)
    track = spec.endpoint("get_track")
    assert track is not None
    assert track.records_path is None
    assert {"name", "artists", "duration_ms"} <= {f.name for f in track.fields}


async def test_the_current_users_profile_comes_back_as_one_record(spotify: dict[str, Any]) -> None:
    api = FakeApi({DOC_URL: spotify})
    api.answer = ME
    async with SchemaRouter(http_client=api.client) as router:
        await router.add_url(
            DOC_URL, kind="openapi", name="spotify", base_url=API, operations=["get-current-users-profile"]
        )
        result = await router.invoke(
            PlanRequest(query="display name of the current user", fields=["display_name"])
        )
    assert [r["display_name"] for r in result.records] == ["JM Wizzler"]


async def test_an_array_named_like_the_resource_still_holds_the_records(spotify: dict[str, Any]) -> None:
    assert await records_path_of(spotify, "get_an_artists_related_artists") == ["artists"]


async def test_results_beside_the_id_asked_about_are_the_records(tmdb: dict[str, Any]) -> None:
    assert await records_path_of(tmdb, "GET_tv_tv_id_keywords") == ["results"]


async def test_a_list_beside_only_the_id_asked_about_holds_the_records(tmdb: dict[str, Any]) -> None:
    assert await records_path_of(tmdb, "GET_company_company_id_images") == ["logos"]


async def test_a_collection_with_its_parts_is_one_record(tmdb: dict[str, Any]) -> None:
    assert await records_path_of(tmdb, "GET_collection_collection_id") is None


# -- fields inside a record's objects ----------------------------------------------------------

GENE = {
    "type": "object",
    "properties": {
        "gene_id": {"type": "string"},
        "symbol": {"type": "string"},
        "description": {"type": "string"},
        "chromosomes": {"type": "array", "items": {"type": "string"}},
        "map_locations": {"type": "array", "items": {"type": "string"}},
    },
}
REPORT = {
    "type": "object",
    "properties": {"gene": GENE, "query": {"type": "array", "items": {"type": "string"}}},
}
REPORTS = {
    "type": "object",
    "properties": {"reports": {"type": "array", "items": REPORT}, "total_count": {"type": "integer"}},
}
LMP10 = {"gene": {"gene_id": "5699", "symbol": "PSMB10", "chromosomes": ["16"], "map_locations": ["16q22.1"]}}


def gene_document(*, projection: bool = False) -> dict[str, Any]:
    parameters: list[dict[str, Any]] = [
        {"name": "gene_ids", "in": "path", "required": True, "schema": {"type": "string"}}
    ]
    if projection:
        parameters.append({"name": "fields", "in": "query", "schema": {"type": "string"}})
    operation = get("gene_reports_by_id", parameters=parameters, schema=REPORTS)
    return document({"/gene/id/{gene_ids}/dataset_report": operation})


async def test_a_field_inside_a_records_object_is_a_field_by_its_dotted_name() -> None:
    spec, _, _ = await build({DOC_URL: gene_document()})
    reports = spec.endpoint("gene_reports_by_id")
    assert reports is not None
    chromosomes = next(f for f in reports.fields if f.name == "gene.chromosomes")
    assert chromosomes.wire_path == ["gene", "chromosomes"]
    assert chromosomes.sid == "chromosomes"


async def test_a_question_for_a_genes_chromosome_is_answered_from_inside_the_report() -> None:
    api = FakeApi({DOC_URL: gene_document()})
    api.answer = {"reports": [LMP10], "total_count": 1}
    async with SchemaRouter(http_client=api.client) as router:
        await router.add_url(DOC_URL, kind="openapi", name="ncbi")
        request = PlanRequest(query="chromosomes of the gene", arguments={"gene_ids": "5699"})
        plan = router.plan(request)
        result = await router.invoke(request)
    assert plan.missing == []
    assert result.records[0]["gene"]["chromosomes"] == ["16"]  # the small object, whole


async def test_a_nested_field_is_asked_of_the_server_by_its_top_level_member() -> None:
    api = FakeApi({DOC_URL: gene_document(projection=True)})
    async with SchemaRouter(http_client=api.client) as router:
        await router.add_url(DOC_URL, kind="openapi", name="ncbi")
        plan = router.plan(
            PlanRequest(query="map locations", fields=["gene.map_locations"], arguments={"gene_ids": "5699"})
        )
    assert plan.primary is not None
    assert "gene" in plan.primary.server_projection["fields"].split(",")


async def test_a_nested_id_identifies_a_record_that_has_no_id_of_its_own() -> None:
    spec, _, _ = await build({DOC_URL: gene_document()})
    reports = spec.endpoint("gene_reports_by_id")
    assert reports is not None
    assert [f.name for f in reports.fields if f.identity] == ["gene.gene_id"]


async def test_a_nested_id_beside_the_records_own_id_identifies_nothing() -> None:
    record = {"type": "object", "properties": {"id": {"type": "string"}, "gene": GENE}}
    doc = document({"/reports": get("reports", schema={"type": "array", "items": record})})
    spec, _, _ = await build({DOC_URL: doc})
    reports = spec.endpoint("reports")
    assert reports is not None
    assert [f.name for f in reports.fields if f.identity] == ["id"]
    assert "gene.gene_id" in {f.name for f in reports.fields}


async def test_an_object_pointing_at_another_resource_stays_inside_its_field(
    spotify: dict[str, Any],
) -> None:
    spec, _, _ = await build({DOC_URL: spotify}, base_url=API)
    track = spec.endpoint("get_track")
    assert track is not None
    assert "album" in {f.name for f in track.fields}
    assert not [f.name for f in track.fields if f.name.startswith("album.")]  # the album has an id


async def test_a_value_object_of_a_resource_gives_fields(spotify: dict[str, Any]) -> None:
    spec, _, _ = await build({DOC_URL: spotify}, base_url=API)
    track = spec.endpoint("get_track")
    assert track is not None
    isrc = next(f for f in track.fields if f.name == "external_ids.isrc")
    assert isrc.wire_path == ["external_ids", "isrc"]
    assert isrc.sid == "external_ids.isrc"  # one word alone names nothing: the dotted name


async def test_a_nested_field_means_what_its_leaf_name_means_elsewhere_in_the_document() -> None:
    wrapper = {"type": "object", "properties": {"gene": GENE}}
    genes = {"type": "array", "items": {"type": "object", "properties": {"symbol": {"type": "string"}}}}
    doc = document(
        {
            "/reports": get("reports", schema={"type": "array", "items": wrapper}),
            "/genes": get("genes", schema=genes),
        }
    )
    spec, _, _ = await build({DOC_URL: doc})
    reports, listing = spec.endpoint("reports"), spec.endpoint("genes")
    assert reports is not None and listing is not None
    assert {f.name: f.sid for f in reports.fields}["gene.symbol"] == listing.fields[0].sid == "symbol"


async def test_a_leaf_name_two_objects_of_a_record_share_keeps_the_dotted_name() -> None:
    other = {"type": "object", "properties": {"symbol": {"type": "string"}}}
    wrapper = {"type": "object", "properties": {"gene": GENE, "ortholog": other}}
    doc = document({"/reports": get("reports", schema={"type": "array", "items": wrapper})})
    spec, _, _ = await build({DOC_URL: doc})
    reports = spec.endpoint("reports")
    assert reports is not None
    sids = {f.name: f.sid for f in reports.fields}
    assert sids["gene.symbol"] == "gene.symbol" and sids["ortholog.symbol"] == "ortholog.symbol"
    assert sids["gene.chromosomes"] == "chromosomes"


SYMMETRY = {
    "type": "object",
    "properties": {
        "crystal_system": {"type": "string", "title": "Crystal System"},
        "symbol": {"type": "string", "title": "Space Group Symbol"},
        "number": {"type": "integer", "title": "Space Group Number"},
    },
}
MATERIAL = {
    "type": "object",
    "properties": {
        "material_id": {"type": "string"},
        "formula_pretty": {"type": "string"},
        "band_gap": {"type": "number"},
        "symmetry": {"anyOf": [{"$ref": "#/components/schemas/SymmetryData"}, {"type": "null"}]},
    },
}
SNO2 = {
    "material_id": "mp-856",
    "formula_pretty": "SnO2",
    "band_gap": 0.65,
    "symmetry": {"crystal_system": "Tetragonal", "symbol": "P4_2/mnm", "number": 136},
}


def materials_document() -> dict[str, Any]:
    parameters = [{"name": "formula", "in": "query", "schema": {"type": "string"}}]
    operation = get("search_materials", parameters=parameters, schema={"type": "array", "items": MATERIAL})
    return document({"/materials": operation}, components={"schemas": {"SymmetryData": SYMMETRY}})


async def test_the_members_of_a_records_value_object_are_fields_by_dotted_and_leaf_name() -> None:
    spec, _, _ = await build({DOC_URL: materials_document()})
    materials = spec.endpoint("search_materials")
    assert materials is not None
    sids = {f.name: f.sid for f in materials.fields}
    assert sids["symmetry.crystal_system"] == "crystal_system"
    assert sids["symmetry.number"] == "symmetry.number"


async def test_a_question_for_a_crystal_system_is_answered_from_inside_the_symmetry() -> None:
    api = FakeApi({DOC_URL: materials_document()})
    api.answer = [SNO2]
    async with SchemaRouter(http_client=api.client) as router:
        await router.add_url(DOC_URL, kind="openapi", name="mp")
        request = PlanRequest(query="what crystal system is SnO2", arguments={"formula": "SnO2"})
        plan = router.plan(request)
        result = await router.invoke(request)
    assert plan.need == ["crystal_system"] and plan.missing == []
    assert [record["symmetry"]["crystal_system"] for record in result.records] == ["Tetragonal"]


async def test_a_title_in_other_words_than_the_name_is_an_alias_and_a_respelling_is_not() -> None:
    spec, _, _ = await build({DOC_URL: materials_document()})
    materials = spec.endpoint("search_materials")
    assert materials is not None
    aliases = {f.name: f.aliases for f in materials.fields}
    assert aliases["symmetry.symbol"] == ["Space Group Symbol"]
    assert aliases["symmetry.crystal_system"] == []  # "Crystal System" only re-spells the name


async def test_an_object_with_objects_inside_stays_one_field() -> None:
    details = {"type": "object", "properties": {"card": {"type": "object", "properties": {"brand": {}}}}}
    record = {
        "type": "object",
        "properties": {"amount": {"type": "integer"}, "status": {}, "x": {}, "d": details},
    }
    doc = document({"/charges": get("charges", schema={"type": "array", "items": record})})
    spec, _, _ = await build({DOC_URL: doc})
    charges = spec.endpoint("charges")
    assert charges is not None
    assert not [f.name for f in charges.fields if "." in f.name]


async def test_a_one_word_title_is_no_alias() -> None:
    member = {"title": "PaymentIntentNextAction", "type": "string"}
    record = {"type": "object", "properties": {"id": {"type": "string"}, "next_action": member}}
    doc = document({"/intents": get("intents", schema={"type": "array", "items": record})})
    spec, _, _ = await build({DOC_URL: doc})
    intents = spec.endpoint("intents")
    assert intents is not None
    assert {f.name: f.aliases for f in intents.fields}["next_action"] == []


async def test_a_record_schema_that_operations_share_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from schemarouter_integrations.adapters._openapi import record_fields as records

    looked: list[Any] = []
    real_opens = records.opens
    monkeypatch.setattr(
        records, "opens", lambda resolver, schema: looked.append(schema) or real_opens(resolver, schema)
    )
    listing = {"type": "array", "items": {"$ref": "#/components/schemas/Material"}}
    paths = {f"/materials/{n}": get(f"search_{n}", schema=listing) for n in ("a", "b", "c")}
    doc = document(paths, components={"schemas": {"Material": MATERIAL, "SymmetryData": SYMMETRY}})
    spec, _, _ = await build({DOC_URL: doc})
    assert len(looked) == len(MATERIAL["properties"])  # one operation's worth, not three
    fields = [[f.name for f in endpoint.fields] for endpoint in spec.endpoints]
    assert fields[0] == fields[1] == fields[2] and "symmetry.crystal_system" in fields[0]
