"""A LlamaIndex tool call nothing observes skips ``FunctionTool.acall`` (and its spans) and
gives the same ``ToolOutput``; anything that observes sends it through ``FunctionTool.acall``."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from llama_index.core.instrumentation import get_dispatcher
from llama_index.core.instrumentation.span_handlers import SimpleSpanHandler
from llama_index.core.tools import FunctionTool, ToolOutput

from schemarouter_integrations import ToolResult
from schemarouter_integrations.llamaindex import SchemaRouterToolSpec
from tests.support.llamaindex import capturing, recording_spans
from tests.support.seed import seed_router

pytestmark = pytest.mark.anyio
ASK = {"query": "Si band gap", "formula": "Si"}


@pytest.fixture
def through_function_tool(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The names of the tools whose call went through ``FunctionTool.acall`` (seen by the
    async callback it runs: wrapping ``acall`` itself would send every call through it)."""
    seen: list[str] = []
    real = FunctionTool._run_async_callback

    async def counting(self: FunctionTool, output: Any) -> Any:
        seen.append(self.metadata.get_name())
        return await real(self, output)

    monkeypatch.setattr(FunctionTool, "_run_async_callback", counting)
    yield seen


def _tool(**settings: Any) -> FunctionTool:
    """A tool over a fresh router whose ``mp_api`` is down (so each call sees the same routes)."""
    router, _ = seed_router(down=("mp_api",))
    return SchemaRouterToolSpec(router, name="materials", **settings).to_tool_list()[0]


def _fields(output: ToolOutput) -> dict[str, Any]:
    """What a caller reads of an output (a run's ids and times differ between two runs)."""
    raw = output.raw_output
    fields: dict[str, Any] = {
        "tool_name": output.tool_name,
        "content": output.content,
        "blocks": output.blocks,
        "raw_input": output.raw_input,
        "is_error": output.is_error,
        "exception": type(output.exception),
        "raw_output": type(raw),
    }
    if isinstance(raw, ToolResult):
        fields["result"] = (raw.access_path, raw.records, raw.route, [e.type for e in raw.events])
    else:
        fields["result"] = raw
    return fields


def test_the_tool_is_a_function_tool_named_like_one() -> None:
    tool = _tool()
    assert isinstance(tool, FunctionTool) and type(tool).__name__ == "FunctionTool"
    assert tool.requires_context


async def test_an_unobserved_call_does_not_go_through_function_tool_acall(
    through_function_tool: list[str],
) -> None:
    output = await _tool(fallback_scope="cross_provider").acall(**ASK)
    assert through_function_tool == [] and not output.is_error


async def test_an_unobserved_answer_is_the_output_a_traced_call_gives(
    through_function_tool: list[str],
) -> None:
    quiet = await _tool(fallback_scope="cross_provider").acall(**ASK)
    with recording_spans():
        traced = await _tool(fallback_scope="cross_provider").acall(**ASK)
    assert through_function_tool == ["materials"]
    assert _fields(quiet) == _fields(traced)
    assert quiet.raw_output.access_path == "mp_optimade.search"


async def test_an_unobserved_routing_error_is_the_output_a_traced_call_gives() -> None:
    quiet = await _tool(preferred_tools=["mp_api"]).acall(**ASK)
    with recording_spans():
        traced = await _tool(preferred_tools=["mp_api"]).acall(**ASK)
    assert quiet.is_error and _fields(quiet) == _fields(traced)


async def test_unobserved_invalid_arguments_give_the_output_a_traced_call_gives() -> None:
    quiet = await _tool().acall("one", "two")
    with recording_spans():
        traced = await _tool().acall("one", "two")
    assert quiet.is_error and _fields(quiet) == _fields(traced)


async def test_a_span_handler_sees_the_function_tool_span_and_the_tool_spec_span() -> None:
    with recording_spans() as spans:
        await _tool(fallback_scope="cross_provider").acall(**ASK)
    names = {span.id_.split("-")[0] for span in spans.completed_spans}
    assert {"FunctionTool.acall", "SchemaRouterToolSpec.acall"} <= names


async def test_an_event_handler_sends_the_call_through_function_tool_acall(
    through_function_tool: list[str],
) -> None:
    with capturing() as handler:
        await _tool(fallback_scope="cross_provider").acall(**ASK)
    assert through_function_tool == ["materials"]
    assert any(getattr(e, "router_event_type", None) == "run.end" for e in handler.events)


async def test_a_handler_on_the_package_dispatcher_alone_counts_as_observing(
    through_function_tool: list[str],
) -> None:
    with capturing("schemarouter_integrations.llamaindex") as handler:
        await _tool(fallback_scope="cross_provider").acall(**ASK)
    assert through_function_tool == ["materials"] and handler.events


async def test_a_span_handler_on_the_tools_dispatcher_alone_counts_as_observing(
    through_function_tool: list[str],
) -> None:
    tools = get_dispatcher(FunctionTool.__module__)  # its parent is the root
    spans = SimpleSpanHandler()
    tools.add_span_handler(spans)
    try:
        await _tool(fallback_scope="cross_provider").acall(**ASK)
    finally:
        tools.span_handlers = [h for h in tools.span_handlers if h is not spans]
    assert through_function_tool == ["materials"]
    assert any(span.id_.startswith("FunctionTool.acall-") for span in spans.completed_spans)


async def test_a_workflow_context_sends_the_call_through_function_tool_acall(
    through_function_tool: list[str],
) -> None:
    tool = _tool(fallback_scope="cross_provider")
    assert tool.ctx_param_name is not None
    output = await tool.acall(**ASK, **{tool.ctx_param_name: object()})
    assert through_function_tool == ["materials"] and not output.is_error


async def test_removing_the_context_parameter_still_fails_as_function_tool_does() -> None:
    tool = _tool()
    tool.partial_params = {}
    with pytest.raises(ValueError, match="Context is required"):
        await tool.acall(**ASK)


async def test_a_tool_spec_subclass_that_changes_acall_is_still_called(
    through_function_tool: list[str],
) -> None:
    class Tagged(SchemaRouterToolSpec):
        async def acall(self, *args: Any, **kwargs: Any) -> ToolOutput:
            output = await super().acall(*args, **kwargs)
            output.raw_input["tagged"] = True
            return output

    router, _ = seed_router()
    output = await Tagged(router, name="materials").to_tool_list()[0].acall(**ASK)
    assert output.raw_input["tagged"] is True and through_function_tool == ["materials"]


async def test_a_wrapper_installed_on_function_tool_acall_sees_every_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Instrumentation that wraps ``FunctionTool.acall`` (as APM libraries do) keeps seeing calls."""
    seen: list[str] = []
    real = FunctionTool.acall

    async def wrapped(self: FunctionTool, *args: Any, **kwargs: Any) -> ToolOutput:
        seen.append(self.metadata.get_name())
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(FunctionTool, "acall", wrapped)
    output = await _tool(fallback_scope="cross_provider").acall(**ASK)
    assert seen == ["materials"] and not output.is_error


async def test_a_deep_copied_tool_answers_through_the_same_router_and_is_traced() -> None:
    router, invokers = seed_router(down=("mp_api",))
    tool = SchemaRouterToolSpec(router, name="materials", fallback_scope="cross_provider").to_tool_list()[0]
    copied = copy.deepcopy(tool)
    with recording_spans() as spans:
        await copied.acall(**ASK)
    assert any(span.id_.startswith("FunctionTool.acall-") for span in spans.completed_spans)
    await copied.acall(**ASK)  # unobserved: answered by the original tool spec and its invokers
    assert len(invokers["mp_optimade"].calls) == 2


async def test_an_acall_set_on_the_tool_spec_instance_is_still_called(
    through_function_tool: list[str],
) -> None:
    router, _ = seed_router()
    spec = SchemaRouterToolSpec(router, name="materials")
    audited: list[dict[str, Any]] = []
    original = spec.acall

    async def audit(*args: Any, **kwargs: Any) -> ToolOutput:
        audited.append(dict(kwargs))
        return await original(*args, **kwargs)

    spec.acall = audit  # type: ignore[method-assign]
    output = await spec.to_tool_list()[0].acall(**ASK)
    assert len(audited) == 1 and not output.is_error
