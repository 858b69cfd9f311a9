"""A preferred tool that is not registered is a plan warning and one log line, not silence."""

from __future__ import annotations

import logging

import pytest

from schemarouter_integrations import EndpointSpec, FieldSpec, PlanRequest, SchemaRouter, ToolSpec

REQUEST = PlanRequest(query="band gap", preferred_tools=["mp_api"])


def router_with(name: str) -> SchemaRouter:
    router = SchemaRouter()
    endpoint = EndpointSpec(name="search", read_only=True, fields=[FieldSpec(name="band_gap")])
    router.register(ToolSpec(name=name, provider="materials_project", endpoints=[endpoint]))
    return router


def test_a_preferred_tool_that_is_not_registered_is_a_plan_warning() -> None:
    plan = router_with("mp_python").plan(REQUEST)
    assert len(plan.warnings) == 1
    assert "'mp_api' is not registered" in plan.warnings[0]


def test_the_plan_still_answers_from_the_registered_tools() -> None:
    plan = router_with("mp_python").plan(REQUEST)
    assert plan.primary is not None and plan.primary.tool == "mp_python"


def test_explain_shows_the_warning() -> None:
    plan = router_with("mp_python").plan(REQUEST)
    assert f"warning: {plan.warnings[0]}" in plan.explain()


def test_a_registered_preferred_tool_gives_no_warning() -> None:
    assert router_with("mp_api").plan(REQUEST).warnings == []


def test_the_warning_is_logged_once_for_repeated_plans(caplog: pytest.LogCaptureFixture) -> None:
    router = router_with("mp_python")
    with caplog.at_level(logging.WARNING, logger="schemarouter_integrations.planning"):
        for _ in range(3):
            router.plan(REQUEST)
    assert [r.getMessage().count("'mp_api' is not registered") for r in caplog.records] == [1]


def test_the_warning_is_logged_again_after_the_contracts_change(caplog: pytest.LogCaptureFixture) -> None:
    router = router_with("mp_python")
    with caplog.at_level(logging.WARNING, logger="schemarouter_integrations.planning"):
        router.plan(REQUEST)
        router.register(ToolSpec(name="other", endpoints=[EndpointSpec(name="s", fields=[])]))
        router.plan(REQUEST)
    assert len(caplog.records) == 2
