"""The framework-neutral helpers (_framework) that the LangChain tool is built on."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from schemarouter_integrations import (
    NonRetryableInvocationError,
    PlanRequest,
    PolicyViolationError,
    RouterEvent,
    SchemaRouter,
    StaleFingerprintError,
    ToolSpec,
)
from schemarouter_integrations._framework import (
    ToolOptions,
    ToolSurface,
    arguments_model,
    describe_tool,
    event_from_json,
    model_error_message,
    model_routes,
    trace_payload,
)
from schemarouter_integrations.errors import InvokerCrashedError
from tests.support.seed import FORMULA_INPUT, FakeInvoker, band_gap, endpoint, seed_router

ODD_NAMES = {
    "type": "object",
    "properties": {
        "_limit": {"type": "integer"},
        "band-gap-min": {"type": "number"},
        "json": {"type": "string"},
    },
}


def fallback_run_events() -> list[RouterEvent]:
    router, _ = seed_router(down=("mp_api",))
    request = PlanRequest(query="band gap of Si", fallback_scope="same_provider")

    async def collect() -> list[RouterEvent]:
        return [event async for event in router.stream(request)]

    return anyio.run(collect)


def test_options_drop_arguments_the_model_left_out() -> None:
    request = ToolOptions(fallback_scope="same_provider").request(
        "Si band gap", {"formula": "Si", "limit": None}
    )
    assert request.arguments == {"formula": "Si"}
    assert request.fallback_scope == "same_provider"


def test_argument_names_that_are_not_identifiers_are_renamed_and_mapped_back() -> None:
    router = SchemaRouter()
    router.register(
        ToolSpec(name="api", provider="p", endpoints=[endpoint(fields=[band_gap()], input_schema=ODD_NAMES)])
    )
    arguments = arguments_model(router)
    assert {a.name: a.python_name for a in arguments.arguments} == {
        "_limit": "limit",
        "band-gap-min": "band_gap_min",
        "json": "json_2",
    }
    values = arguments.model.model_validate({"query": "gap", "_limit": 2, "band_gap_min": 1.0}).model_dump()
    assert arguments.to_canonical(values) == {"_limit": 2, "band-gap-min": 1.0}


def router_with_one_route(read_only: bool | None) -> SchemaRouter:
    router = SchemaRouter()
    router.register(
        ToolSpec(
            name="mp_python", provider="mp", endpoints=[endpoint(fields=[band_gap()], read_only=read_only)]
        )
    )
    return router


@pytest.mark.parametrize("read_only", [True, False, None])
@pytest.mark.parametrize("scope", ["disabled", "same_provider"])
@pytest.mark.parametrize("preferred", [True, False])
def test_the_model_is_shown_a_route_exactly_when_the_planner_could_pick_it(
    read_only: bool | None, scope: Any, preferred: bool
) -> None:
    router = router_with_one_route(read_only)
    options = ToolOptions(fallback_scope=scope, preferred_tools=("mp_python",) if preferred else ())

    plannable = router.plan(options.request("Si band gap", {"formula": "Si"})).primary is not None

    assert bool(model_routes(router, options=options)) is plannable


def test_a_preferred_unclassified_route_gives_the_model_its_arguments_and_fields() -> None:
    router = router_with_one_route(None)
    options = ToolOptions(preferred_tools=("mp_python",))

    arguments = arguments_model(router, options=options)

    assert [a.name for a in arguments.arguments] == sorted(FORMULA_INPUT["properties"])
    description = describe_tool(router, options=options)
    assert "band_gap" in description and "No data source" not in description


def test_without_options_only_read_only_routes_are_shown() -> None:
    router = router_with_one_route(None)
    assert (model_routes(router), arguments_model(router).arguments) == ([], ())
    assert "No data source is registered yet." in describe_tool(router)


def test_tool_surface_rebuilds_when_the_options_change() -> None:
    router = router_with_one_route(None)
    surface = ToolSurface(router)
    assert surface.arguments.arguments == ()

    assert surface.refresh(ToolOptions(preferred_tools=("mp_python",))) is True
    assert "formula" in surface.arguments.json_schema()["properties"]
    assert surface.refresh(ToolOptions(preferred_tools=("mp_python",))) is False


def test_argument_accepted_by_some_sources_only_says_so() -> None:
    router, _ = seed_router()
    narrow = {"type": "object", "properties": {"elements": {"type": "array", "items": {"type": "string"}}}}
    router.register(
        ToolSpec(
            name="alex", provider="alexandria", endpoints=[endpoint(fields=[band_gap()], input_schema=narrow)]
        ),
        FakeInvoker("oqmd_api"),
    )
    (elements,) = [a for a in arguments_model(router).arguments if a.name == "elements"]
    assert not elements.universal
    assert "Only some sources accept it" in elements.description


def test_event_json_round_trips_to_typed_events_including_the_result() -> None:
    events = fallback_run_events()
    rebuilt = [event_from_json(e.model_dump(mode="json")) for e in events]
    assert [type(e) for e in rebuilt] == [type(e) for e in events]
    result = getattr(rebuilt[-1], "result", None)
    assert result is not None and result.route == ["mp_api.search", "mp_optimade.search"]


def test_trace_payload_summarises_the_result_instead_of_copying_records() -> None:
    payload = trace_payload(fallback_run_events()[-1])
    assert payload["result"] == {
        "access_path": "mp_optimade.search",
        "provider": "materials_project",
        "access_mode": "optimade",
        "records": 1,
        "route": ["mp_api.search", "mp_optimade.search"],
        "fallbacks": 1,
    }


@pytest.mark.parametrize(
    "error",
    [
        StaleFingerprintError("plan again"),
        PolicyViolationError("mutating fallback"),
        InvokerCrashedError("api.search raised TypeError"),
        NonRetryableInvocationError("401 bad API key", status_code=401),
        NonRetryableInvocationError("body is not JSON"),
        TypeError("bug"),
    ],
)
def test_errors_the_model_cannot_fix_get_no_model_message(error: Any) -> None:
    assert model_error_message(error) is None


def test_upstream_refusal_gets_a_model_message_with_its_status() -> None:
    error = NonRetryableInvocationError("GET /materials/mp-0 answered 404 Not Found", status_code=404)
    message = model_error_message(error)
    assert message is not None and "(HTTP 404)" in message and "mp-0" in message
