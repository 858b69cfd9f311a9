"""Over a real loopback FastAPI server that answers one page at a time: a listing is paged up
to ``PlanRequest.max_records`` through the paging parameters its OpenAPI document declares
(an offset with a size, or a page number), the answer keeps the source's count and says
"first N of M" when it is cut, and a server whose paging does not move is not asked forever."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from schemarouter_integrations import PlanRequest, RunBudget, SchemaRouter
from schemarouter_integrations._framework import result_content
from tests.servers.paging_api import paging_api
from tests.servers.uvicorn_thread import UvicornThread

pytestmark = pytest.mark.anyio

Running = tuple[UvicornThread, list[dict[str, str]]]


@pytest.fixture
def api() -> Iterator[Running]:
    with paging_api() as running:
        yield running


async def registered(server: UvicornThread, operation: str) -> SchemaRouter:
    router = SchemaRouter()
    await router.add_url(
        f"{server.url}/openapi.json", kind="openapi", name="lab", provider="lab", operations=[operation]
    )
    return router


async def test_an_offset_listing_is_paged_up_to_max_records(api: Running) -> None:
    server, requests = api
    router = await registered(server, "search_materials")
    result = await router.invoke(PlanRequest(query="band gaps of materials", max_records=45))
    assert [r["material_id"] for r in result.records] == [f"mp-{i}" for i in range(45)]
    assert (result.total, result.truncated) == (250, True)
    assert [(q.get("_skip"), q.get("_limit")) for q in requests] == [(None, None), ("10", "35")]


async def test_the_default_bound_pages_to_200_and_the_model_reads_first_200_of_250(api: Running) -> None:
    server, _ = api
    router = await registered(server, "search_materials")
    result = await router.invoke(PlanRequest(query="band gaps of materials"))
    assert len(result.records) == 200 and len({r["material_id"] for r in result.records}) == 200
    assert "Records (first 200 of 250):" in result_content(result)


async def test_a_page_number_listing_is_paged_to_its_end(api: Running) -> None:
    server, requests = api
    router = await registered(server, "list_elements")
    result = await router.invoke(PlanRequest(query="atomic numbers of the elements"))
    assert [r["atomic_number"] for r in result.records] == list(range(1, 58))
    assert (result.total, result.truncated) == (57, False)
    assert [q.get("page") for q in requests] == [None, "2", "3", "4", "5", "6"]


async def test_a_server_whose_pages_do_not_move_is_asked_once_more_only(api: Running) -> None:
    server, requests = api
    router = await registered(server, "list_stuck")
    result = await router.invoke(PlanRequest(query="stuck elements"))
    assert len(result.records) == 10 and result.truncated is True
    assert len(requests) == 2


async def test_further_pages_are_charged_to_the_run_budget(api: Running) -> None:
    server, requests = api
    router = await registered(server, "list_elements")
    result = await router.invoke(
        PlanRequest(query="atomic numbers of the elements"), budget=RunBudget(max_attempts=3)
    )
    assert len(result.records) == 30 and (result.total, result.truncated) == (57, True)
    assert len(requests) == 3


async def test_a_listing_the_caller_started_near_its_end_is_not_paged_past_it(api: Running) -> None:
    server, requests = api
    router = await registered(server, "search_materials")
    result = await router.invoke(
        PlanRequest(query="band gaps of materials", arguments={"_skip": 240}, max_records=45)
    )
    assert [r["material_id"] for r in result.records] == [f"mp-{i}" for i in range(240, 250)]
    assert len(requests) == 1


async def test_a_listing_the_caller_started_at_an_offset_goes_on_from_there(api: Running) -> None:
    server, requests = api
    router = await registered(server, "search_materials")
    result = await router.invoke(
        PlanRequest(query="band gaps of materials", arguments={"_skip": 100}, max_records=25)
    )
    assert [r["material_id"] for r in result.records] == [f"mp-{i}" for i in range(100, 125)]
    assert [(q.get("_skip"), q.get("_limit")) for q in requests] == [("100", None), ("110", "15")]


async def test_a_listing_whose_page_size_the_caller_set_is_one_page(api: Running) -> None:
    server, requests = api
    router = await registered(server, "search_materials")
    result = await router.invoke(PlanRequest(query="band gaps of materials", arguments={"_limit": 3}))
    assert [r["material_id"] for r in result.records] == ["mp-0", "mp-1", "mp-2"]
    assert (result.total, result.truncated) == (250, True)
    assert [q.get("_limit") for q in requests] == ["3"]
