"""A quiet run awaits its calls (``ChainRunner._settled``, ``Executor.quietly``) instead of
streaming them: each scenario gives the same result and the same events, built lazily, as
the same run with a listener."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import (
    EndpointSpec,
    FieldSpec,
    InvocationUnavailableError,
    PlanRequest,
    RetryPolicy,
    SchemaRouter,
    ToolCall,
    ToolSpec,
)
from schemarouter_integrations._execution.executor import RUN_EVENTS_ATTRIBUTE
from schemarouter_integrations._execution.projection import project_records, read_path, write_path
from schemarouter_integrations.errors import InvokerCrashedError, SchemaValidationError
from schemarouter_integrations.events import RouterEvent, ToolResult

pytestmark = pytest.mark.anyio
INPUT = {"type": "object", "properties": {"formula": {"type": "string"}}, "additionalProperties": False}
REQUEST = PlanRequest(query="Si band gap", arguments={"formula": "Si"})
VARYING = {"run_id", "timestamp", "duration_ms", "cooldown_seconds"}


async def band_gaps(formula: str = "Si") -> list[dict[str, Any]]:
    return [{"material_id": "mp-149", "formula": formula, "band_gap": 0.61}]


def comparable(events: list[RouterEvent]) -> list[tuple[type[RouterEvent], dict[str, Any]]]:
    return [(type(e), e.model_dump(exclude=VARYING & set(type(e).model_fields))) for e in events]


def spec(name: str, *, retry: RetryPolicy | None = None) -> ToolSpec:
    fields = [FieldSpec(name="band_gap"), FieldSpec(name="formula")]
    endpoint = EndpointSpec(
        name="search",
        read_only=True,
        input_schema=INPUT,
        records_path=["data"],
        fields=fields,
        retry=retry or RetryPolicy(),
    )
    return ToolSpec(name=name, provider="mp", endpoints=[endpoint])


async def no_sleep(seconds: float) -> None:
    return None


def listened(router: SchemaRouter) -> list[RouterEvent]:
    heard: list[RouterEvent] = []
    router.subscribe(heard.append)
    return heard


def assert_same_run(quiet: ToolResult, loud: ToolResult, heard: list[RouterEvent]) -> None:
    assert "events" not in quiet.__dict__  # built on first read
    assert comparable(quiet.events) == comparable(loud.events) == comparable(heard[:-1])
    assert [e.seq for e in quiet.events] == list(range(1, len(quiet.events) + 1))
    assert len({e.run_id for e in quiet.events}) == 1
    assert quiet.model_dump(exclude={"events"}) == loud.model_dump(exclude={"events"})


async def test_one_healthy_callable_route_answers_alike_quiet_and_listened() -> None:
    def router() -> SchemaRouter:
        made = SchemaRouter()
        made.add_callable(band_gaps, name="mp_python", provider="materials_project", read_only=True)
        return made

    quiet = await router().invoke(REQUEST)
    loud_router = router()
    heard = listened(loud_router)
    loud = await loud_router.invoke(REQUEST)
    assert_same_run(quiet, loud, heard)
    assert [e.type for e in quiet.events] == ["run.start", "plan.compiled", "tool.start", "tool.end"]
    assert quiet.records == [{"material_id": "mp-149", "formula": "Si", "band_gap": 0.61}]


async def test_a_route_retried_then_answering_answers_alike_quiet_and_listened() -> None:
    def router() -> SchemaRouter:
        failures = [InvocationUnavailableError("busy", status_code=503)]

        async def flaky(call: ToolCall) -> Any:
            if failures:
                raise failures.pop()
            return {"data": [{"band_gap": 0.6, "formula": "Si"}]}

        made = SchemaRouter(sleep=no_sleep)
        made.register(spec("a_api", retry=RetryPolicy(max_attempts=2)), flaky)
        return made

    quiet = await router().invoke(REQUEST)
    loud_router = router()
    heard = listened(loud_router)
    loud = await loud_router.invoke(REQUEST)
    assert_same_run(quiet, loud, heard)
    assert [e.type for e in quiet.events][2:] == ["tool.start", "tool.retry", "tool.end"]
    assert [(a.attempt, a.ok) for a in quiet.attempts] == [(1, False), (2, True)]


async def run_error_events(router: SchemaRouter) -> tuple[BaseException, tuple[RouterEvent, ...]]:
    with pytest.raises(Exception) as raised:
        await router.invoke(REQUEST)
    return raised.value, getattr(raised.value, RUN_EVENTS_ATTRIBUTE)


async def test_a_crashing_invoker_fails_alike_quiet_and_listened_with_the_runs_events() -> None:
    async def crashes(call: ToolCall) -> Any:
        raise KeyError("bug")

    def router() -> SchemaRouter:
        made = SchemaRouter()
        made.register(spec("a_api"), crashes)
        return made

    quiet_error, quiet_events = await run_error_events(router())
    loud_router = router()
    heard = listened(loud_router)
    loud_error, loud_events = await run_error_events(loud_router)
    assert type(quiet_error) is type(loud_error) is InvokerCrashedError
    assert str(quiet_error) == str(loud_error) == "a_api.search raised KeyError: 'bug'"
    assert isinstance(quiet_error.__cause__, KeyError)
    assert comparable(list(quiet_events)) == comparable(list(loud_events)) == comparable(heard)
    assert [e.type for e in quiet_events][-2:] == ["tool.error", "run.error"]


async def test_an_answer_breaking_its_contract_fails_alike_quiet_and_listened() -> None:
    async def not_json(call: ToolCall) -> Any:
        return {"data": [{"band_gap": float("nan"), "formula": "Si"}]}

    def router() -> SchemaRouter:
        made = SchemaRouter()
        made.register(spec("a_api"), not_json)
        return made

    quiet_error, quiet_events = await run_error_events(router())
    loud_router = router()
    heard = listened(loud_router)
    loud_error, loud_events = await run_error_events(loud_router)
    assert type(quiet_error) is type(loud_error) is SchemaValidationError
    assert comparable(list(quiet_events)) == comparable(list(loud_events)) == comparable(heard)


async def test_a_route_unavailable_after_its_retries_fails_alike_quiet_and_listened() -> None:
    async def down(call: ToolCall) -> Any:
        raise InvocationUnavailableError("down", status_code=503)

    def router() -> SchemaRouter:
        made = SchemaRouter(sleep=no_sleep)
        made.register(spec("a_api", retry=RetryPolicy(max_attempts=3)), down)
        return made

    quiet_error, quiet_events = await run_error_events(router())
    loud_router = router()
    heard = listened(loud_router)
    loud_error, loud_events = await run_error_events(loud_router)
    assert type(quiet_error) is type(loud_error)
    assert comparable(list(quiet_events)) == comparable(list(loud_events)) == comparable(heard)
    assert [e.type for e in quiet_events].count("tool.retry") == 2


def walked(
    records: list[dict[str, Any]], endpoint: EndpointSpec, selected: list[str]
) -> list[dict[str, Any]]:
    """The projection by the general path walk, for comparison with the flat fast path."""
    out: list[dict[str, Any]] = []
    for record in records:
        projected: dict[str, Any] = {}
        for name in selected:
            field = endpoint.field(name)
            if field is None:
                continue
            value = read_path(record, field.wire_path)
            if value is not read_path({}, ["absent"]):
                write_path(projected, field.result_location, value)
        out.append(projected)
    return out


def test_a_flat_projection_projects_like_the_path_walk() -> None:
    endpoint = EndpointSpec(
        name="search",
        input_schema=INPUT,
        fields=[FieldSpec(name="band_gap", path=["gap"]), FieldSpec(name="formula"), FieldSpec(name="id")],
    )
    records = [{"gap": 0.6, "formula": "Si", "extra": 1}, {"formula": None}, {}]
    selected = ["formula", "band_gap", "unknown"]
    assert project_records(records, endpoint, selected) == walked(records, endpoint, selected)
    assert project_records(records, endpoint, selected) == [
        {"formula": "Si", "band_gap": 0.6},
        {"formula": None},
        {},
    ]


def test_a_nested_projection_still_walks_its_paths() -> None:
    endpoint = EndpointSpec(
        name="search",
        input_schema=INPUT,
        fields=[FieldSpec(name="band_gap", path=["props", "gap"], result_path=["gaps", "band"])],
    )
    records = [{"props": {"gap": 0.6}}, {"props": {}}]
    assert project_records(records, endpoint, ["band_gap"]) == [{"gaps": {"band": 0.6}}, {}]


async def test_a_callable_gets_only_the_arguments_given_by_name() -> None:
    seen: list[dict[str, Any]] = []

    async def band_gaps_of(formula: str, *, limit: int = 5, source: str = "mp") -> list[dict[str, Any]]:
        seen.append({"formula": formula, "limit": limit, "source": source})
        return [{"formula": formula, "band_gap": 0.61}]

    router = SchemaRouter()
    router.add_callable(
        band_gaps_of, name="gaps", provider="p", read_only=True, fields=["formula", "band_gap"]
    )
    await router.invoke(PlanRequest(query="band gap", arguments={"formula": "Si", "limit": 2}))
    assert seen == [{"formula": "Si", "limit": 2, "source": "mp"}]


async def test_a_quiet_runs_tool_start_read_later_holds_copies_of_the_calls_arguments() -> None:
    router = SchemaRouter()
    router.add_callable(band_gaps, name="mp_python", provider="materials_project", read_only=True)
    plan = router.plan_executable(REQUEST)
    assert plan.primary is not None
    result = await router.invoke(plan)
    [start] = [e for e in result.events if e.type == "tool.start"]
    assert start.arguments == dict(plan.primary.arguments) == {"formula": "Si"}  # type: ignore[attr-defined]
    start.arguments["formula"] = "Ge"  # type: ignore[attr-defined]
    assert plan.primary.arguments == {"formula": "Si"}


async def test_a_quiet_runs_plan_compiled_read_later_describes_the_plan_it_ran() -> None:
    router = SchemaRouter()
    router.add_callable(band_gaps, name="mp_python", provider="materials_project", read_only=True)
    plan = router.plan_executable(REQUEST)
    result = await router.invoke(plan)
    [compiled] = [e for e in result.events if e.type == "plan.compiled"]
    assert compiled.primary == "mp_python.band_gaps" and compiled.fallbacks == []  # type: ignore[attr-defined]
    assert compiled.need == list(plan.need) and compiled.rejected == plan.rejected_count()  # type: ignore[attr-defined]


async def test_a_quiet_runs_tool_start_holds_the_arguments_as_called_when_the_invoker_changes_them() -> None:
    async def consuming(call: ToolCall) -> dict[str, Any]:
        call.arguments.pop("formula", None)  # a wrapper taking an argument out in place
        return {"data": [{"band_gap": 0.6, "formula": "Si"}]}

    router = SchemaRouter()
    router.register(spec("mp_a"), consuming)
    result = await router.invoke(PlanRequest(query="Si band gap", arguments={"formula": "Si"}))
    [start] = [e for e in result.events if e.type == "tool.start"]
    assert start.arguments == {"formula": "Si"}  # type: ignore[attr-defined]


async def test_a_quiet_runs_plan_compiled_is_unchanged_by_a_caller_changing_the_results_plan() -> None:
    async def answering(call: ToolCall) -> dict[str, Any]:
        return {"data": [{"band_gap": 0.6, "formula": "Si"}]}

    router = SchemaRouter()
    router.register(spec("mp_a"), answering)
    router.register(spec("mp_b"), answering)
    request = PlanRequest(query="Si band gap", arguments={"formula": "Si"}, fallback_scope="same_provider")
    result = await router.invoke(request)
    result.plan.need.clear()
    result.plan.fallbacks.clear()
    [compiled] = [e for e in result.events if e.type == "plan.compiled"]
    assert compiled.need == ["band_gap"] and compiled.fallbacks == ["mp_b.search"]  # type: ignore[attr-defined]
