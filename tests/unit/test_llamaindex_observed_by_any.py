"""``observed_by_any`` answers as ``observed`` asked of each dispatcher in turn."""

from __future__ import annotations

from llama_index.core.instrumentation import get_dispatcher
from llama_index.core.tools import FunctionTool

from schemarouter_integrations.llamaindex._listeners import observed, observed_by_any
from schemarouter_integrations.llamaindex._tool_spec import dispatcher
from tests.support.llamaindex import capturing, recording_spans

TOOLS = get_dispatcher(FunctionTool.__module__)


def test_nothing_observes_either_dispatcher() -> None:
    assert observed_by_any((TOOLS, dispatcher)) is False


def test_a_handler_on_the_second_dispatchers_parent_counts() -> None:
    with capturing("schemarouter_integrations.llamaindex"):
        assert observed_by_any((TOOLS, dispatcher)) and not observed(TOOLS)


def test_a_handler_on_the_first_dispatcher_counts() -> None:
    with capturing(FunctionTool.__module__):
        assert observed_by_any((TOOLS, dispatcher)) and not observed(dispatcher)


def test_a_span_handler_on_the_shared_root_counts() -> None:
    with recording_spans():
        assert observed_by_any((TOOLS, dispatcher))
