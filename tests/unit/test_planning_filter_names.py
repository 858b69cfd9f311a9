"""A filter expression's names are evidence for the routes whose records have them.

The OPTIMADE adapter marks its raw ``filter`` argument (``FILTER_NAMES``); a route whose
fields lack a name written in it cannot take it, and the plan says which names
(``_planning/filter_names.py``).
"""

from __future__ import annotations

from schemarouter_integrations import EndpointSpec, FieldSpec, PlanRequest, SchemaRouter, ToolSpec
from schemarouter_integrations._contracts.schemas import FILTER_NAMES
from schemarouter_integrations.adapters._optimade.contract import input_schema

FILTER = {"type": "object", "properties": {"filter": {"type": "string", FILTER_NAMES: True}}}


def entries(name: str, description: str, *fields: str) -> EndpointSpec:
    return EndpointSpec(
        name=name,
        description=description,
        fields=[FieldSpec(name=f) for f in fields],
        input_schema=FILTER,
        read_only=True,
    )


def router() -> SchemaRouter:
    router = SchemaRouter()
    references = entries("references", "Publications cited for a gap", "id", "doi", "authors")
    structures = entries("structures", "Crystal structures", "id", "nelements", "_db_band_gap")
    router.register(ToolSpec(name="db", endpoints=[references, structures]))
    return router


def test_a_route_whose_records_lack_a_filtered_name_is_ruled_out_naming_it() -> None:
    plan = router().plan(
        PlanRequest(query="binary ones with a gap", arguments={"filter": "nelements=2 AND _db_band_gap>1"})
    )
    assert plan.primary is not None and plan.primary.endpoint == "structures"
    reasons = {rejection.endpoint: rejection.reason for rejection in plan.rejected}
    assert "'nelements', '_db_band_gap'" in reasons["references"]


def test_the_optimade_filter_argument_is_marked_as_naming_fields() -> None:
    assert input_schema("references", {})["properties"]["filter"][FILTER_NAMES] is True
