"""A list sent to a path parameter is written as OpenAPI's default ``simple`` style says: the
items, each escaped, joined with ``,`` (``/genes/BRCA1,TP53``), never as JSON text."""

from __future__ import annotations

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter, SchemaValidationError
from tests.support.openapi import DOC_URL, FakeApi, build, call, document, get, param

pytestmark = pytest.mark.anyio

SYMBOLS = {"type": "array", "items": {"type": "string"}}
GENES = document(
    {"/genes/{symbols}/report": get("gene_report", parameters=[param("symbols", "path", SYMBOLS)])}
)


async def test_a_list_in_a_path_is_its_items_joined_with_commas() -> None:
    spec, invoker, api = await build({DOC_URL: GENES})
    await invoker(call(spec, "gene_report", {"symbols": ["BRCA1", "TP53"]}))
    assert api.requests[-1].url.raw_path == b"/genes/BRCA1,TP53/report"


async def test_each_item_in_a_path_is_escaped_on_its_own() -> None:
    spec, invoker, api = await build({DOC_URL: GENES})
    await invoker(call(spec, "gene_report", {"symbols": ["a/b", "..", "c,d"]}))
    assert api.requests[-1].url.raw_path == b"/genes/a%2Fb,%2E%2E,c%2Cd/report"


async def test_an_empty_list_in_a_path_is_refused() -> None:
    spec, invoker, _ = await build({DOC_URL: GENES})
    with pytest.raises(SchemaValidationError, match="symbols"):
        await invoker(call(spec, "gene_report", {"symbols": []}))


async def test_one_symbol_for_a_path_list_is_planned_and_sent_as_that_symbol() -> None:
    api = FakeApi({DOC_URL: GENES})
    api.answer = [{"symbol": "BRCA1"}]
    async with SchemaRouter(http_client=api.client) as router:
        await router.add_url(DOC_URL, kind="openapi", name="genes")
        request = PlanRequest(query="gene report", arguments={"symbols": "BRCA1"})
        plan = router.plan(request)
        await router.invoke(request)
    assert plan.primary is not None and plan.primary.arguments == {"symbols": ["BRCA1"]}
    assert api.requests[-1].url.raw_path == b"/genes/BRCA1/report"
