"""Listings are bounded by ``PlanRequest.max_records`` (default 200); ``ToolResult.total`` is the
source's count when it reports one, ``ToolResult.truncated`` says records were left out, and the
model reads "first N of M" before what the answer lacks."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import EndpointSpec, FieldSpec, PlanRequest, SchemaRouter, ToolSpec
from schemarouter_integrations._framework import result_content

pytestmark = pytest.mark.anyio


def listing(count: int, *, wrapper: dict[str, Any] | None = None) -> SchemaRouter:
    """One read-only listing of *count* materials; with *wrapper*, the records sit in its ``data``
    beside the wrapper's other keys (a ``meta`` with a count, say)."""
    rows = [{"material_id": f"mp-{i}", "band_gap": i / 10} for i in range(count)]
    endpoint = EndpointSpec(
        name="search",
        read_only=True,
        input_schema={"type": "object", "properties": {}},
        fields=[FieldSpec(name="material_id", identity=True), FieldSpec(name="band_gap")],
        records_path=["data"] if wrapper is not None else None,
    )
    router = SchemaRouter()
    router.register(ToolSpec(name="mp", provider="mp", endpoints=[endpoint]))

    async def answer(call: object) -> object:
        return {**wrapper, "data": rows} if wrapper is not None else rows

    router.bind("mp", answer)
    return router


async def test_a_listing_within_the_bound_is_whole() -> None:
    result = await listing(12).invoke(PlanRequest(query="band gap"))
    assert len(result.records) == 12
    assert result.truncated is False and result.total is None


async def test_a_listing_longer_than_the_default_bound_is_cut_at_200() -> None:
    result = await listing(250).invoke(PlanRequest(query="band gap"))
    assert len(result.records) == 200 and result.records[-1]["material_id"] == "mp-199"
    assert result.truncated is True


async def test_max_records_bounds_the_records_of_an_answer() -> None:
    result = await listing(12).invoke(PlanRequest(query="band gap", max_records=5))
    assert [r["material_id"] for r in result.records] == ["mp-0", "mp-1", "mp-2", "mp-3", "mp-4"]
    assert result.truncated is True


async def test_the_sources_count_is_the_total_and_a_page_short_of_it_is_truncated() -> None:
    router = listing(3, wrapper={"meta": {"total_doc": 1432}})
    result = await router.invoke(PlanRequest(query="band gap"))
    assert result.total == 1432 and result.truncated is True and len(result.records) == 3


async def test_a_count_equal_to_the_records_is_a_whole_answer() -> None:
    result = await listing(3, wrapper={"total": 3}).invoke(PlanRequest(query="band gap"))
    assert result.total == 3 and result.truncated is False


async def test_more_data_available_marks_the_answer_truncated_without_a_count() -> None:
    router = listing(3, wrapper={"meta": {"more_data_available": True}})
    result = await router.invoke(PlanRequest(query="band gap"))
    assert result.total is None and result.truncated is True


async def test_the_model_reads_first_n_of_m_when_the_answer_was_cut() -> None:
    router = listing(3, wrapper={"meta": {"total_doc": 1432}})
    lines = result_content(await router.invoke(PlanRequest(query="band gap"))).splitlines()
    assert lines[1] == "Records (first 3 of 1432):"
    cut = result_content(await listing(12).invoke(PlanRequest(query="band gap", max_records=5)))
    assert "Records (first 5 of more):" in cut


def test_max_records_must_be_positive() -> None:
    with pytest.raises(ValueError):
        PlanRequest(query="band gap", max_records=0)
    assert PlanRequest(query="band gap").max_records == 200
