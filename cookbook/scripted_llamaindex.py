"""A scripted function-calling LLM for LlamaIndex: no key, no network.

Used by ``llamaindex_agent.py`` and by the tests. Put a real function-calling LLM
(``OpenAI(model=...)``, ...) in its place for a live agent.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
from llama_index.core.llms.mock import MockFunctionCallingLLM

BAND_GAP_OF_SI = {"query": "band gap of Si", "formula": "Si"}


def scripted_llm(
    tool_name: str,
    arguments: dict[str, Any] | None = None,
    *,
    answer_prefix: str = "Here is what I found:\n",
) -> MockFunctionCallingLLM:
    """Calls *tool_name* once with *arguments*, then answers with the tool's output after *answer_prefix*."""

    def respond(messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
        results = [m for m in messages if m.role == MessageRole.TOOL]
        if results:
            return ChatMessage(role=MessageRole.ASSISTANT, content=f"{answer_prefix}{results[-1].content}")
        call = ToolCallBlock(
            tool_call_id="call-1", tool_name=tool_name, tool_kwargs=arguments or BAND_GAP_OF_SI
        )
        return ChatMessage(role=MessageRole.ASSISTANT, blocks=[call])

    return MockFunctionCallingLLM(response_generator=respond)
