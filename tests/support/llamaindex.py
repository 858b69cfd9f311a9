"""LlamaIndex helpers: capturing event/span handlers and scripted offline LLMs."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.instrumentation import get_dispatcher
from llama_index.core.instrumentation.event_handlers import BaseEventHandler
from llama_index.core.instrumentation.events import BaseEvent
from llama_index.core.instrumentation.span_handlers import SimpleSpanHandler
from llama_index.core.llms.mock import MockFunctionCallingLLM
from pydantic import Field

from cookbook.scripted_llamaindex import scripted_llm

E = TypeVar("E", bound=BaseEvent)

QUESTION = "What is the band gap of Si?"
TOOL_ARGUMENTS = {"query": "Si band gap", "formula": "Si"}


class CapturingHandler(BaseEventHandler):
    """Keeps every instrumentation event it is handed."""

    events: list[BaseEvent] = Field(default_factory=list)

    def handle(self, event: BaseEvent, **kwargs: Any) -> None:
        self.events.append(event)

    def of(self, kind: type[E]) -> list[E]:
        return [e for e in self.events if isinstance(e, kind)]


@contextmanager
def capturing(dispatcher_name: str = "root") -> Iterator[CapturingHandler]:
    """A handler on *dispatcher_name* for the block; removed afterwards (handlers are global)."""
    dispatcher = get_dispatcher(dispatcher_name)
    handler = CapturingHandler()
    dispatcher.add_event_handler(handler)
    try:
        yield handler
    finally:
        dispatcher.event_handlers = [h for h in dispatcher.event_handlers if h is not handler]


@contextmanager
def recording_spans() -> Iterator[SimpleSpanHandler]:
    """A span handler on the root dispatcher for the block; removed afterwards."""
    dispatcher = get_dispatcher()
    handler = SimpleSpanHandler()
    dispatcher.add_span_handler(handler)
    try:
        yield handler
    finally:
        dispatcher.span_handlers = [h for h in dispatcher.span_handlers if h is not handler]


def function_calling_llm(tool_name: str, arguments: dict[str, Any] | None = None) -> MockFunctionCallingLLM:
    """An offline function-calling LLM (the cookbook's): calls *tool_name* once, then answers
    with its output."""
    return scripted_llm(tool_name, arguments or TOOL_ARGUMENTS, answer_prefix="From the tool: ")


def react_llm(tool_name: str, arguments: dict[str, Any] | None = None) -> MockFunctionCallingLLM:
    """An offline LLM speaking the ReAct text format: one action, then an answer."""

    def respond(messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
        last = messages[-1].content or ""
        if last.startswith("Observation:"):
            observation = last.removeprefix("Observation:").strip()
            text = f"Thought: I can answer without using any more tools.\nAnswer: {observation}"
        else:
            text = (
                "Thought: I need data from the tool.\n"
                f"Action: {tool_name}\n"
                f"Action Input: {json.dumps(arguments or TOOL_ARGUMENTS)}"
            )
        return ChatMessage(role=MessageRole.ASSISTANT, content=text)

    return MockFunctionCallingLLM(response_generator=respond)
