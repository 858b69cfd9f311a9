"""Real loopback HTTP: an OpenAPI document split across files (nested relative references, a
pointer fragment, files that refer to each other, a missing file, a file on another origin),
and an OPTIMADE database whose ``/v1/info/references`` answers 404."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from schemarouter_integrations import PlanRequest, RegistrationError, SchemaRouter
from tests.servers.optimade_gaps import EntryInfoGapProxy
from tests.servers.optimade_server import OptimadeServer
from tests.servers.split_documents import SplitDocumentServer

pytestmark = [pytest.mark.integration, pytest.mark.anyio]


@pytest.fixture(scope="module")
def archive() -> Iterator[SplitDocumentServer]:
    server = SplitDocumentServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def other_archive() -> Iterator[SplitDocumentServer]:
    server = SplitDocumentServer().start()  # another port: another origin
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def fresh(archive: SplitDocumentServer, other_archive: SplitDocumentServer) -> SplitDocumentServer:
    archive.requests.clear()
    other_archive.requests.clear()
    archive.foreign_origin = other_archive.url
    return archive


@pytest.fixture(scope="module")
def gap_proxy(optimade_server: OptimadeServer) -> Iterator[EntryInfoGapProxy]:
    proxy = EntryInfoGapProxy(optimade_server.url, missing=("references",)).start()
    try:
        yield proxy
    finally:
        proxy.stop()


# -- documents in many files -------------------------------------------------------------


async def test_a_document_in_many_files_registers_every_operation(
    router: SchemaRouter, fresh: SplitDocumentServer
) -> None:
    spec = await router.add_url(fresh.document_url, kind="openapi", name="archive")
    assert [e.name for e in spec.endpoints] == ["listSamples", "getLineage"]


async def test_a_parameter_from_a_pointer_fragment_is_an_argument(
    router: SchemaRouter, fresh: SplitDocumentServer
) -> None:
    spec = await router.add_url(fresh.document_url, kind="openapi", name="archive")
    listing = spec.endpoint("listSamples")
    assert listing is not None
    assert listing.input_schema["properties"]["material"]["type"] == "string"


async def test_records_come_from_a_nested_file_beside_messages(
    router: SchemaRouter, fresh: SplitDocumentServer
) -> None:
    spec = await router.add_url(fresh.document_url, kind="openapi", name="archive")
    listing = spec.endpoint("listSamples")
    assert listing is not None
    assert listing.records_path == ["samples"]
    assert [f.name for f in listing.fields] == ["sample_id", "material", "mass_mg", "lineage"]


async def test_files_that_refer_to_each_other_register(
    router: SchemaRouter, fresh: SplitDocumentServer
) -> None:
    spec = await router.add_url(fresh.document_url, kind="openapi", name="archive")
    lineage = spec.endpoint("getLineage")  # lineage.yaml -> its ancestors, sample.yaml -> its lineage
    assert lineage is not None
    assert lineage.records_path == ["ancestors"]
    assert [f.name for f in lineage.fields] == ["sample_id", "material", "mass_mg", "lineage"]


async def test_each_file_is_read_once(router: SchemaRouter, fresh: SplitDocumentServer) -> None:
    await router.add_url(fresh.document_url, kind="openapi", name="archive")
    assert sorted(fresh.requests) == sorted(set(fresh.requests))
    assert "/spec/schemas/lineage.yaml" in fresh.requests


async def test_a_document_in_many_files_answers_a_question(
    router: SchemaRouter, fresh: SplitDocumentServer
) -> None:
    await router.add_url(fresh.document_url, kind="openapi", name="archive")
    result = await router.invoke(PlanRequest(query="sample mass", arguments={"material": "Si"}))
    assert result.route == ["archive.listSamples"]
    assert [r["mass_mg"] for r in result.records] == [12.5]


async def test_a_missing_file_refuses_the_document_naming_the_reference(
    router: SchemaRouter, fresh: SplitDocumentServer
) -> None:
    with pytest.raises(RegistrationError, match=r"cannot resolve \$ref './paths/absent.yaml'.*404"):
        await router.add_url(f"{fresh.url}/spec/broken.yaml", kind="openapi", name="broken")
    assert router.tools == {}


async def test_a_file_on_another_origin_is_refused_and_never_read(
    router: SchemaRouter, fresh: SplitDocumentServer, other_archive: SplitDocumentServer
) -> None:
    with pytest.raises(RegistrationError, match=r"not on the document's own origin.*allow_ref_origins"):
        await router.add_url(f"{fresh.url}/spec/foreign.yaml", kind="openapi", name="foreign")
    assert router.tools == {}
    assert other_archive.requests == []


async def test_allow_ref_origins_reads_a_file_on_another_origin(
    router: SchemaRouter, fresh: SplitDocumentServer, other_archive: SplitDocumentServer
) -> None:
    spec = await router.add_url(
        f"{fresh.url}/spec/foreign.yaml",
        kind="openapi",
        name="foreign",
        allow_ref_origins=[other_archive.url],
    )
    listing = spec.endpoint("listSamples")
    assert listing is not None
    assert [f.name for f in listing.fields] == ["sample_id", "material", "mass_mg", "lineage"]
    assert "/spec/schemas/lineage.yaml" in other_archive.requests  # relative to that file, on its origin


# -- OPTIMADE entry types degrade one by one --------------------------------------------


async def test_an_optimade_database_without_references_info_registers_its_structures(
    router: SchemaRouter, gap_proxy: EntryInfoGapProxy
) -> None:
    spec = await router.add_url(gap_proxy.url, kind="optimade", name="oqmd", provider="oqmd")
    assert "search_structures" in [e.name for e in spec.endpoints]
    assert "search_references" not in [e.name for e in spec.endpoints]


async def test_the_left_out_entry_type_is_named_in_the_registered_tool(
    router: SchemaRouter, gap_proxy: EntryInfoGapProxy
) -> None:
    await router.add_url(gap_proxy.url, kind="optimade", name="oqmd", provider="oqmd")
    assert "Left out: references (GET /v1/info/references answered 404" in router.tools["oqmd"].description


async def test_the_same_database_directly_registers_references_too(
    router: SchemaRouter, optimade_server: OptimadeServer
) -> None:
    spec = await router.add_url(optimade_server.url, kind="optimade", name="oqmd", provider="oqmd")
    assert "search_references" in [e.name for e in spec.endpoints]
    assert "Left out" not in spec.description


async def test_the_degraded_database_answers_through_its_structures(
    router: SchemaRouter, gap_proxy: EntryInfoGapProxy
) -> None:
    await router.add_url(gap_proxy.url, kind="optimade", name="oqmd", provider="oqmd")
    result = await router.invoke(PlanRequest(query="band gap", arguments={"formula": "Si"}))
    assert result.route == ["oqmd.search_structures"]
    assert result.records and all("band_gap" in r for r in result.records)
