"""``router.gather`` bounds each source's listing by ``PlanRequest.max_records`` as ``invoke``
does: every route's ``ToolResult`` holds at most that many records, with the source's ``total``
and ``truncated``, and the model reads which sources were cut."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import EndpointSpec, FieldSpec, PlanRequest, SchemaRouter, ToolSpec
from schemarouter_integrations._framework.gathering import gather_content

pytestmark = pytest.mark.anyio


def two_sources() -> SchemaRouter:
    """``big`` lists 250 materials with no count; ``counted`` sends 3 of the 1432 it counts."""
    router = SchemaRouter()
    answers: dict[str, Any] = {
        "big": {"data": [{"material_id": f"big-{i}", "band_gap": 1.0} for i in range(250)]},
        "counted": {
            "meta": {"total_doc": 1432},
            "data": [{"material_id": f"c-{i}", "band_gap": 2.0} for i in range(3)],
        },
    }
    for name, answer in answers.items():
        endpoint = EndpointSpec(
            name="search",
            read_only=True,
            input_schema={"type": "object", "properties": {}},
            fields=[FieldSpec(name="material_id", identity=True), FieldSpec(name="band_gap")],
            records_path=["data"],
        )
        router.register(ToolSpec(name=name, provider=name, endpoints=[endpoint]))

        async def invoker(call: object, answer: Any = answer) -> Any:
            return answer

        router.bind(name, invoker)
    return router


async def test_each_sources_listing_is_cut_at_max_records() -> None:
    gathered = await two_sources().gather(PlanRequest(query="band gap", max_records=5))
    by_tool = {r.tool: r for r in gathered.results}
    assert len(by_tool["big"].records) == 5
    assert (by_tool["big"].total, by_tool["big"].truncated) == (None, True)
    assert len(gathered.records) == 5 + 3


async def test_each_source_keeps_its_own_count() -> None:
    gathered = await two_sources().gather(PlanRequest(query="band gap"))
    by_tool = {r.tool: r for r in gathered.results}
    assert len(by_tool["big"].records) == 200
    assert (by_tool["counted"].total, by_tool["counted"].truncated) == (1432, True)


async def test_the_model_reads_which_sources_were_cut() -> None:
    gathered = await two_sources().gather(PlanRequest(query="band gap", max_records=5))
    text = gather_content(gathered)
    assert "big (big.search): first 5 of more records" in text
    assert "counted (counted.search): first 3 of 1432 records" in text
