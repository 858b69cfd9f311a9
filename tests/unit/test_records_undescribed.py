"""Answers whose records the document leaves undescribed: an envelope's ``results`` of any
items holds the records (OpenAQ's ``{meta, results: [...]}``), and plain values where the
contract declares no records are records ``{"value": ...}``, not a broken contract."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter
from schemarouter_integrations.adapters._openapi.records import find_records
from schemarouter_integrations.adapters._openapi.schema import SchemaResolver
from tests.support.openapi import DOC_URL, build, document, get, param

pytestmark = pytest.mark.anyio

META = {"type": "object", "properties": {"found": {"type": "integer"}, "page": {"type": "integer"}}}
ENVELOPE = {"type": "object", "properties": {"meta": META, "results": {"type": "array", "items": {}}}}


def records_of(schema: dict[str, Any]) -> tuple[tuple[str, ...] | None, int]:
    found = find_records(SchemaResolver({}, "", "3.1"), schema, "/v2/latest", "latest_get")
    return found.path, len(found.variants)


def test_undescribed_results_beside_meta_hold_the_records() -> None:
    assert records_of(ENVELOPE) == (("results",), 0)


def test_described_scalar_results_are_no_records() -> None:
    scalars = {
        "type": "object",
        "properties": {"meta": META, "results": {"type": "array", "items": {"type": "string"}}},
    }
    assert records_of(scalars) == (None, 1)


def test_undescribed_results_without_a_side_member_are_part_of_one_record() -> None:
    plain = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "results": {"type": "array", "items": {}}},
    }
    assert records_of(plain) == (None, 1)


async def router_answering(schema: dict[str, Any], answer: Any) -> SchemaRouter:
    doc = document({"/v2/latest": get("latest_get", parameters=[param("city")], schema=schema)})
    spec, invoker, api = await build({DOC_URL: doc})
    api.answer = answer
    router = SchemaRouter()
    router.register(spec, invoker)
    return router


async def test_the_records_of_undescribed_results_are_answered_as_they_come() -> None:
    rows = [{"location": "Anand Vihar", "measurements": [{"parameter": "pm25", "value": 181}]}]
    router = await router_answering(ENVELOPE, {"meta": {"found": 1, "page": 1}, "results": rows})
    result = await router.invoke(PlanRequest(query="latest readings", arguments={"city": "Delhi"}))
    assert result.records == rows


async def test_a_plain_value_answered_where_the_contract_declares_nothing_is_a_record() -> None:
    router = await router_answering({}, "no data for Delhi")
    result = await router.invoke(PlanRequest(query="latest readings", arguments={"city": "Delhi"}))
    assert result.records == [{"value": "no data for Delhi"}]
