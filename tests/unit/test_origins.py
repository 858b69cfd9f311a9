"""Origins share a fate: a service that does not answer takes every access path on it out."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import (
    AllRoutesUnavailableError,
    InvocationUnavailableError,
    PlanRequest,
    SchemaRouter,
)
from schemarouter_integrations.errors import InvalidContractError, InvokerCrashedError
from schemarouter_integrations.events import RouteAvailableEvent, RoutePrunedEvent, RouteUnavailableEvent
from tests.support.fakes import FakeClock
from tests.support.health import FakeProbe, ManualSleep, start
from tests.support.origins import MP, band_gap_tool

pytestmark = pytest.mark.anyio

OQMD = "https://oqmd.org"
QUESTION = PlanRequest(
    query="band gap",
    arguments={"formula": "Si"},
    preferred_tools=["mp_rest", "mp_summary", "mp_client", "oqmd"],
    fallback_scope="cross_provider",
)


class Script:
    """Invokers that fail or answer as told, counting their calls."""

    def __init__(self) -> None:
        self.calls: dict[str, int] = {}
        self.failures: dict[str, BaseException] = {}

    def invoker(self, name: str) -> Any:
        async def invoke(call: Any) -> list[dict[str, Any]]:
            self.calls[name] = self.calls.get(name, 0) + 1
            failure = self.failures.get(name)
            if failure is not None:
                raise failure
            return [{"band_gap": 1.1, "formula": call.arguments["formula"]}]

        return invoke


def _landscape(clock: FakeClock | None = None, **settings: Any) -> tuple[SchemaRouter, Script]:
    router = SchemaRouter(clock=clock or FakeClock(), **settings)
    script = Script()
    for name, provider, origin in (
        ("mp_rest", "materials_project", MP),
        ("mp_summary", "materials_project", f"{MP}/summary/"),
        ("mp_client", "materials_project", MP),
        ("oqmd", "oqmd", OQMD),
    ):
        router.register(band_gap_tool(name, provider, origin), script.invoker(name))
    return router, script


def _down(reason: str = "connection refused") -> InvocationUnavailableError:
    return InvocationUnavailableError(f"GET /search: {reason}", transport=True)


def test_a_tool_origin_is_reduced_to_scheme_host_and_port() -> None:
    spec = band_gap_tool(
        "mp", "materials_project", "HTTPS://API.MaterialsProject.org:443/materials/summary/?x=1"
    )

    assert spec.origin == "https://api.materialsproject.org"


def test_an_origin_that_is_not_an_http_url_is_refused() -> None:
    with pytest.raises(InvalidContractError, match="origin must be an absolute http"):
        band_gap_tool("mp", "materials_project", "ftp://example.org")


async def test_a_transport_failure_skips_every_other_path_on_the_same_origin() -> None:
    router, script = _landscape()
    script.failures["mp_rest"] = _down()

    result = await router.invoke(QUESTION)

    assert result.tool == "oqmd"
    assert result.route == ["mp_rest.search", "oqmd.search"]
    assert "mp_summary" not in script.calls and "mp_client" not in script.calls


async def test_paths_skipped_for_their_origin_are_reported_as_pruned_with_the_origin() -> None:
    router, script = _landscape()
    script.failures["mp_rest"] = _down()

    result = await router.invoke(QUESTION)

    pruned = [e for e in result.events if isinstance(e, RoutePrunedEvent)]
    assert [e.access_path for e in pruned] == ["mp_summary.search", "mp_client.search"]
    assert all(MP in e.reason for e in pruned)


async def test_route_unavailable_names_the_origin_it_cools() -> None:
    router, script = _landscape()
    script.failures["mp_rest"] = _down()

    result = await router.invoke(QUESTION)

    (cooled,) = [e for e in result.events if isinstance(e, RouteUnavailableEvent)]
    assert cooled.origin == MP


async def test_a_cooled_origin_shows_in_inspect_with_every_path_on_it() -> None:
    router, script = _landscape()
    script.failures["mp_rest"] = _down()

    await router.invoke(QUESTION)

    execution = router.inspect().execution
    assert list(execution.cooled_origins) == [MP]
    assert execution.unavailable_access_paths == ["mp_client.search", "mp_rest.search", "mp_summary.search"]
    assert set(execution.cooldowns) == set(execution.unavailable_access_paths)


async def test_planning_leaves_out_every_path_of_a_cooled_origin() -> None:
    router, script = _landscape()
    script.failures["mp_rest"] = _down()
    await router.invoke(QUESTION)

    plan = router.plan(QUESTION)

    assert plan.primary is not None and plan.primary.tool == "oqmd"
    reasons = {r.tool: r.reason for r in plan.rejected}
    assert reasons["mp_client"].startswith("unavailable: in cooldown")


async def test_a_status_failure_cools_only_its_own_path() -> None:
    router, script = _landscape()
    script.failures["mp_rest"] = InvocationUnavailableError("GET /search answered 503", status_code=503)

    result = await router.invoke(QUESTION)

    assert result.tool == "mp_summary"
    assert router.inspect().execution.cooled_origins == {}


async def test_two_endpoints_failing_on_one_origin_cool_the_origin() -> None:
    router, script = _landscape()
    for name in ("mp_rest", "mp_summary"):
        script.failures[name] = InvocationUnavailableError("answered 503", status_code=503)

    result = await router.invoke(QUESTION)

    assert result.route == ["mp_rest.search", "mp_summary.search", "oqmd.search"]
    assert "mp_client" not in script.calls
    assert list(router.inspect().execution.cooled_origins) == [MP]


async def test_a_crash_while_its_origin_is_failing_in_the_run_is_unavailable() -> None:
    router, script = _landscape()
    script.failures["mp_rest"] = InvocationUnavailableError("answered 503", status_code=503)
    script.failures["mp_client"] = KeyError("version")  # a client parsing a 503 page
    request = QUESTION.model_copy(update={"preferred_tools": ["mp_rest", "mp_client", "oqmd"]})

    result = await router.invoke(request)

    assert result.route == ["mp_rest.search", "mp_client.search", "oqmd.search"]
    (attempt,) = [a for a in result.attempts if a.access_path == "mp_client.search"]
    assert attempt.error_type == "InvocationUnavailableError" and "KeyError" in (attempt.error or "")


async def test_a_crash_on_a_healthy_origin_still_ends_the_run() -> None:
    router, script = _landscape()
    script.failures["mp_rest"] = KeyError("version")

    with pytest.raises(InvokerCrashedError):
        await router.invoke(QUESTION)


async def test_the_origin_reopens_when_its_cooldown_expires() -> None:
    clock = FakeClock()
    router, script = _landscape(clock)
    script.failures["mp_rest"] = _down()
    await router.invoke(QUESTION)

    clock.advance(router.cooldowns.policy.base_seconds + 0.1)

    assert router.inspect().execution.cooled_origins == {}
    assert router.plan(QUESTION).primary is not None and router.plan(QUESTION).primary.tool == "mp_rest"


async def test_mark_access_available_on_any_path_of_the_origin_reopens_it() -> None:
    router, script = _landscape()
    script.failures["mp_rest"] = _down()
    await router.invoke(QUESTION)
    seen: list[Any] = []
    router.subscribe(seen.append)

    router.mark_access_available("mp_client", "search")

    assert router.inspect().execution.cooled_origins == {}
    assert router.inspect().execution.unavailable_access_paths == []  # the timed-out path too
    (reopened,) = [e for e in seen if isinstance(e, RouteAvailableEvent)]
    assert reopened.origin == MP


async def test_a_successful_probe_of_a_path_on_the_origin_reopens_it() -> None:
    clock = FakeClock()
    router, script = _landscape(clock, sleep=ManualSleep(clock))
    script.failures["mp_rest"] = _down()
    await router.invoke(QUESTION)
    router.register_health_probe("mp_summary", "search", FakeProbe(True))

    await start(router)

    assert router.inspect().execution.cooled_origins == {}
    await router.stop_health_monitor()


async def test_a_route_without_origin_cools_only_itself_on_a_transport_failure() -> None:
    router = SchemaRouter(clock=FakeClock())
    script = Script()
    for name, provider in (("mp_rest", "materials_project"), ("mp_summary", "materials_project")):
        router.register(band_gap_tool(name, provider, None), script.invoker(name))
    script.failures["mp_rest"] = _down()

    result = await router.invoke(QUESTION)

    assert result.route == ["mp_rest.search", "mp_summary.search"]
    assert router.inspect().execution.cooled_origins == {}


async def test_every_route_on_a_dead_origin_ends_in_all_routes_unavailable() -> None:
    router, script = _landscape()
    script.failures["mp_rest"] = _down()
    request = QUESTION.model_copy(update={"fallback_scope": "same_provider"})

    with pytest.raises(AllRoutesUnavailableError):
        await router.invoke(request)
    assert script.calls == {"mp_rest": 1}


async def test_a_timeout_while_another_path_of_the_origin_answered_cools_only_its_path() -> None:
    clock = FakeClock()
    router, script = _landscape(clock)
    await router.invoke(QUESTION.model_copy(update={"preferred_tools": ["mp_summary"]}))  # answers
    script.failures["mp_rest"] = _down("timed out after 2s")
    clock.advance(1.0)

    async def slow_then_down(call: Any) -> Any:  # mp_summary answers while mp_rest waits
        await router.invoke(QUESTION.model_copy(update={"preferred_tools": ["mp_summary"]}))
        raise _down("timed out after 2s")

    router.bind("mp_rest", slow_then_down)
    result = await router.invoke(QUESTION)

    assert result.tool == "mp_summary"
    assert router.inspect().execution.cooled_origins == {}


async def test_an_earlier_success_at_the_same_clock_reading_does_not_keep_the_origin_open() -> None:
    router, script = _landscape(FakeClock())  # the clock never moves, like a coarse clock
    await router.invoke(QUESTION)  # mp_rest answers
    script.failures["mp_rest"] = _down()

    result = await router.invoke(QUESTION)

    assert result.route == ["mp_rest.search", "oqmd.search"]
    assert list(router.inspect().execution.cooled_origins) == [MP]


async def test_a_failed_probe_keeps_a_cooled_origin_closed_and_grows_it() -> None:
    clock = FakeClock()
    router, script = _landscape(clock, sleep=ManualSleep(clock))
    script.failures["mp_rest"] = _down()
    await router.invoke(QUESTION)
    before = router.inspect().execution.cooled_origins[MP]
    router.register_health_probe("mp_summary", "search", FakeProbe(False))

    await start(router)

    assert router.inspect().execution.cooled_origins[MP] > before
    await router.stop_health_monitor()


async def test_a_run_whose_every_route_cooled_after_planning_says_so() -> None:
    router, script = _landscape()
    plan = router.plan(QUESTION.model_copy(update={"fallback_scope": "same_provider"}))
    script.failures["mp_summary"] = _down()
    with pytest.raises(AllRoutesUnavailableError):  # another question cools the MP origin meanwhile
        await router.invoke(
            PlanRequest(query="band gap", arguments={"formula": "Si"}, preferred_tools=["mp_summary"])
        )

    with pytest.raises(AllRoutesUnavailableError, match=f"their origin {MP} cools down"):
        await router.invoke(plan)
    assert "mp_rest" not in script.calls


def test_an_internationalised_host_is_one_origin_however_it_is_written() -> None:
    unicode = band_gap_tool("a", "p", "https://bücher.example/api")
    ascii_form = band_gap_tool("b", "p", "https://xn--bcher-kva.example")

    assert unicode.origin == ascii_form.origin == "https://xn--bcher-kva.example"
