"""What a model sees of the real MP document, and a range question asked through LangChain.

The summary operation has 124 query parameters; the model-facing schema shows the filters
on the fields the routes serve (``band_gap_min``/``band_gap_max``, ``energy_above_hull_max``)
and never the router's own parameters (paging, field selection, formatting, licence).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from langchain_core.messages import BaseMessage, HumanMessage, ToolMessage

from cookbook.scripted_langchain import ScriptedChemist
from cookbook.services.materials_project.landscape import MPLandscape
from schemarouter_integrations import PlanRequest, SchemaRouter, ToolResult
from schemarouter_integrations.langchain import SchemaRouterTool
from tests.integration.materials_project.conftest import require_mp_environment

pytestmark = [pytest.mark.integration, pytest.mark.anyio, pytest.mark.timeout(900)]
require_mp_environment()

BuildRouter = Callable[..., Awaitable[SchemaRouter]]
SUMMARY = "search_materials_summary__get"
ROUTER_PARAMETERS = ("page", "per_page", "skip", "limit", "fields", "all_fields", "license", "id_format")
RANGE_FILTERS = ("band_gap_min", "band_gap_max", "energy_above_hull_max")
IN_RANGE = {"GaAs": 1.52, "AlAs": 1.51, "GaN": 1.74, "WO2": 1.9916}
"""The served materials whose band gap lies between 1 and 2 eV (Si, NaCl, MgO, Fe and Fe2O3 do not)."""


def materials_tool(router: SchemaRouter) -> SchemaRouterTool:
    return SchemaRouterTool(
        router=router, name="materials", preferred_tools=["mp_api"], fallback_scope="cross_provider"
    )


def router_parameters_in(names: set[str]) -> set[str]:
    """The router's parameters among *names*, whatever their leading underscores."""
    return {name for name in names if name.lstrip("_") in ROUTER_PARAMETERS}


async def summary_only(landscape: MPLandscape) -> SchemaRouter:
    router = SchemaRouter()
    await router.add_url(
        f"{landscape.mp_url}/openapi.json",
        kind="openapi",
        name="mp_api",
        provider="materials_project",
        operations=[SUMMARY],
        document_timeout_seconds=30.0,
    )
    return router


async def test_the_landscape_tool_shows_the_band_gap_and_hull_filters_and_no_router_parameter(
    landscape_router: BuildRouter,
) -> None:
    shown = set(materials_tool(await landscape_router()).args)
    assert set(RANGE_FILTERS) <= shown
    assert router_parameters_in(shown) == set()
    assert {"formula", "elements"} <= shown


async def test_the_summary_operation_alone_shows_the_band_gap_and_hull_filters_and_no_router_parameter(
    mp_landscape: MPLandscape,
) -> None:
    router = await summary_only(mp_landscape)
    try:
        shown = set(materials_tool(router).args)
        (summary,) = router.registry.routes()
        accepted = set(summary.endpoint.input_schema["properties"])
    finally:
        await router.aclose()
    assert set(RANGE_FILTERS) <= shown
    assert router_parameters_in(shown) == set()
    assert shown - {"query", "filters"} <= accepted, "a subset shows only what the subset accepts"


async def test_the_summary_operation_keeps_the_router_parameters_for_the_application(
    mp_landscape: MPLandscape,
) -> None:
    router = await summary_only(mp_landscape)
    try:
        (summary,) = router.registry.routes()
        owned = set(materials_tool(router).arguments.owned)
    finally:
        await router.aclose()
    assert owned == {"_page", "_per_page", "_skip", "_limit", "_all_fields", "license", "id_format"}
    assert owned <= set(summary.endpoint.input_schema["properties"])


async def test_a_band_gap_range_question_through_langchain_reaches_mp_rest_with_both_filters(
    landscape_router: BuildRouter,
) -> None:
    tool = materials_tool(await landscape_router())
    model = ScriptedChemist(
        tool_arguments={"band_gap_min": 1, "band_gap_max": 2},
        answer_format="{band_gap} eV from {route}",
    ).bind_tools([tool])
    messages: list[BaseMessage] = [HumanMessage("materials with a band gap between 1 and 2 eV")]
    reply = await model.ainvoke(messages)
    (call,) = reply.tool_calls
    assert call["args"] == {
        "query": "materials with a band gap between 1 and 2 eV",
        "band_gap_min": 1,
        "band_gap_max": 2,
    }
    message = await tool.ainvoke(call)
    assert isinstance(message, ToolMessage) and message.status == "success", message.content
    result: ToolResult = message.artifact
    assert result.tool == "mp_api"
    assert result.plan is not None and result.plan.primary is not None
    assert result.plan.primary.arguments == {"band_gap_min": 1, "band_gap_max": 2}
    gaps = {record["formula_pretty"]: record["band_gap"] for record in result.records}
    assert gaps == IN_RANGE, "the MP server filtered on both bounds"


async def test_a_filter_the_model_is_not_shown_is_still_sent_when_the_application_passes_it(
    mp_landscape: MPLandscape,
) -> None:
    router = await summary_only(mp_landscape)
    try:
        shown = set(materials_tool(router).args)
        result = await router.invoke(
            PlanRequest(
                query="band gap of materials",
                arguments={"band_gap_min": 1.0, "crystal_system": "Cubic", "_limit": 2},
            )
        )
    finally:
        await router.aclose()
    assert "crystal_system" not in shown and "limit" not in shown
    assert result.tool == "mp_api"
    formulas = [record["formula_pretty"] for record in result.records]
    assert len(formulas) == 2 and set(formulas) <= {"GaAs", "AlAs", "NaCl", "MgO"}, result.records


async def test_every_mp_filter_is_expressible_and_the_whole_documents_schema_stays_in_budget(
    mp_landscape: MPLandscape,
) -> None:
    import json

    from schemarouter_integrations._framework.arguments import MAX_MODEL_SCHEMA_BYTES

    router = SchemaRouter()
    await router.add_url(
        f"{mp_landscape.mp_url}/openapi.json", kind="openapi", name="mp_api", document_timeout_seconds=30.0
    )
    try:
        arguments = materials_tool(router).arguments
        schema = arguments.json_schema()
    finally:
        await router.aclose()
    assert len(json.dumps(schema)) <= MAX_MODEL_SCHEMA_BYTES
    assert arguments.filters is not None
    assert {"is_stable", "energy_above_hull_max", "k_vrh_min", "ordering"} <= set(arguments.filters.names)
    assert "limit" not in arguments.filters.names and "all_fields" not in arguments.filters.names
    checked = arguments.to_canonical(arguments.checked({"query": "stable", "filters": {"k_vrh_min": "100"}}))
    assert checked == {"k_vrh_min": 100.0}
