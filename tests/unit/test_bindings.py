"""Bindings are separate from health: ready, unbound, stale and orphaned."""

from __future__ import annotations

import pytest

from schemarouter_integrations import PlanRequest, RegistrationError, SchemaRouter, ToolSpec
from tests.support.seed import FakeInvoker, band_gap, endpoint, mp_api, seed_router

REQUEST = PlanRequest(
    query="Si band gap",
    arguments={"formula": "Si"},
    preferred_tools=["mp_api"],
    fallback_scope="cross_provider",
)


def test_registering_with_an_invoker_is_ready() -> None:
    router = SchemaRouter()
    router.register(mp_api(), FakeInvoker("mp_api"))
    assert router.inspect().execution.binding_states == {"mp_api": "ready"}


def test_registering_without_an_invoker_is_unbound() -> None:
    router = SchemaRouter()
    router.register(mp_api())
    assert router.binding_state("mp_api") == "unbound"


def test_replacing_a_contract_leaves_the_old_binding_stale_until_bound_again() -> None:
    router = SchemaRouter()
    invoker = FakeInvoker("mp_api")
    router.register(mp_api(), invoker)
    router.register(mp_api(cost_units=2.0))
    assert router.binding_state("mp_api") == "stale"
    router.bind("mp_api", invoker)
    assert router.binding_state("mp_api") == "ready"


def test_removing_a_bound_tool_leaves_an_orphaned_binding() -> None:
    router = SchemaRouter()
    router.register(mp_api(), FakeInvoker("mp_api"))
    router.remove_tool("mp_api")
    assert router.inspect().execution.binding_states == {"mp_api": "orphaned"}
    router.unbind("mp_api")
    assert router.inspect().execution.binding_states == {}


def test_unbinding_a_registered_tool_makes_it_unbound() -> None:
    router = SchemaRouter()
    router.register(mp_api(), FakeInvoker("mp_api"))
    router.unbind("mp_api")
    assert router.binding_state("mp_api") == "unbound"


def test_binding_an_unknown_tool_is_a_registration_error() -> None:
    with pytest.raises(RegistrationError, match="no such tool"):
        SchemaRouter().bind("ghost", FakeInvoker("ghost"))


def test_removing_an_unknown_tool_is_a_registration_error() -> None:
    with pytest.raises(RegistrationError, match="no tool named 'ghost'"):
        SchemaRouter().remove_tool("ghost")


def test_plan_ignores_bindings_but_plan_executable_drops_routes_not_ready() -> None:
    router, _ = seed_router()
    router.unbind("mp_optimade")
    router.register(router.tools["mp_python"].model_copy(update={"description": "changed"}))
    router.register(ToolSpec(name="oqmd_api", provider="oqmd", endpoints=[endpoint(fields=[band_gap()])]))
    assert [c.tool for c in router.plan(REQUEST).calls] == ["mp_api", "mp_optimade", "mp_python", "oqmd_api"]
    executable = router.plan_executable(REQUEST)
    assert [c.tool for c in executable.calls] == ["mp_api"]
    rejected = {r.tool: r.reason for r in executable.rejected}
    assert rejected["mp_optimade"].startswith("binding is unbound")
    assert rejected["mp_python"].startswith("binding is stale")
    assert rejected["oqmd_api"].startswith("binding is stale")


def test_binding_state_and_health_are_reported_separately() -> None:
    router, _ = seed_router()
    router.unbind("mp_optimade")
    router.mark_access_unavailable("mp_api", "search", seconds=10)
    execution = router.inspect().execution
    assert execution.binding_states["mp_api"] == "ready"
    assert execution.binding_states["mp_optimade"] == "unbound"
    assert execution.unavailable_access_paths == ["mp_api.search"]
